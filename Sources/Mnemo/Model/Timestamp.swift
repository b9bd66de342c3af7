import Foundation

/// ISO-8601 timestamps as Mnemo reads and writes them (ingest, export, JSON output).
public enum Timestamp {
    /// Formats a date in UTC with millisecond precision, such as `2025-03-14T09:21:00.250Z`;
    /// whole seconds are written without a fraction (`2025-03-14T09:21:00Z`).
    ///
    /// The date is rounded to the nearest millisecond. (Formatters that truncate turn a parsed
    /// `.787`, stored as the double just below it, into `.786`; export and ingest would drift.)
    public static func format(_ date: Date) -> String {
        let (day, time, milliseconds) = utcFields(date)
        return "\(day)T\(time)" + (milliseconds == 0 ? "Z" : "." + threeDigits(milliseconds) + "Z")
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

    /// The text GRDB stores for a date (`2025-03-14 09:21:00.250`, UTC), rounded to the nearest
    /// millisecond rather than truncated, so that a date read from an export is stored as written.
    static func databaseText(_ date: Date) -> String {
        let (day, time, milliseconds) = utcFields(date)
        return "\(day) \(time).\(threeDigits(milliseconds))"
    }

    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// `("2025-03-14", "09:21:00", 250)`, computed from whole milliseconds.
    private static func utcFields(_ date: Date) -> (day: String, time: String, milliseconds: Int) {
        let total = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, milliseconds) = total.quotientAndRemainder(dividingBy: 1000)
        var clock = time_t(milliseconds < 0 ? seconds - 1 : seconds)
        var fields = tm()
        gmtime_r(&clock, &fields)
        let day = String(format: "%04d-%02d-%02d", fields.tm_year + 1900, fields.tm_mon + 1, fields.tm_mday)
        let time = String(format: "%02d:%02d:%02d", fields.tm_hour, fields.tm_min, fields.tm_sec)
        return (day, time, Int(milliseconds < 0 ? milliseconds + 1000 : milliseconds))
    }

    private static func threeDigits(_ value: Int) -> String {
        value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
    }
}
