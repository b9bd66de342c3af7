import Foundation

/// ISO-8601 timestamps as Mnemo reads and writes them (ingest, export, JSON output).
public enum Timestamp {
    /// Formats a date in UTC with millisecond precision, such as `2025-03-14T09:21:00.250Z`;
    /// whole seconds are written without a fraction (`2025-03-14T09:21:00Z`).
    public static func format(_ date: Date) -> String {
        let text = date.formatted(withFraction)
        return text.hasSuffix(".000Z") ? String(text.dropLast(5)) + "Z" : text
    }

    /// Parses `2025-03-14T09:21:00Z`, with an optional fraction of a second and an optional
    /// UTC offset instead of `Z`, or a plain date `2025-03-14` (midnight UTC).
    public static func parse(_ text: String) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let date = try? withFraction.parse(text) { return date }
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        if let date = try? Date.ISO8601FormatStyle().year().month().day().parse(text) { return date }
        return nil
    }

    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
