import Foundation

/// A bound of a time filter as a person writes it: a date, a month, a year, a moment, or an age
/// relative to now ("7d"). Front doors read `--since 7d`, `since:2025-05` or `"until": "2025-06-30"`
/// with it, so that every one accepts the same values and rejects them with the same message.
///
/// | text | meaning |
/// | --- | --- |
/// | `2025-05-01T09:30:00Z` | that moment (RFC 3339, any UTC offset) |
/// | `2025-05-01` | that day, UTC |
/// | `2025-05` | that month, UTC |
/// | `2025` | that year, UTC |
/// | `36h`, `7d`, `2w`, `3mo`, `1y` | that long before now (hours, days, weeks, 30-day months, 365-day years) |
/// | `today`, `yesterday` | that day, UTC |
///
/// A period (day, month, year) resolves to its start as a lower bound and to the start of the
/// next period as an upper bound, so `since:2025-05 until:2025-06` is May and June whole
/// (``FactFilter/until`` is exclusive). An age or a moment is the same instant either way.
public enum TimeBound: Hashable, Sendable {
    /// An instant.
    case moment(Date)
    /// A calendar period `[start, end)` in UTC.
    case period(start: Date, end: Date)
    /// This many seconds before now.
    case age(TimeInterval)
    /// The UTC day this many days before today's (0: today, 1: yesterday).
    case daysAgo(Int)

    /// Which end of a range a bound is.
    public enum Role: String, Sendable {
        case since, until
    }

    /// Reads a bound; `nil` when the text is none of the forms above.
    public init?(_ text: String) {
        let text = text.trimmingBlanks.lowercased()
        if text == "today" || text == "yesterday" {
            self = .daysAgo(text == "today" ? 0 : 1)
            return
        }
        if let age = Self.age(text) {
            self = .age(age)
        } else if let period = Self.period(text) {
            self = .period(start: period.start, end: period.end)
        } else if let moment = Timestamp.parse(text) {
            self = .moment(moment)
        } else {
            return nil
        }
    }

    /// Reads a bound or throws the one message every front door shows for a wrong value.
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` naming `field`.
    public static func parse(_ text: String, field: String) throws -> TimeBound {
        guard let bound = TimeBound(text) else {
            throw MnemoError.invalidInput(field: field, reason: "\"\(text)\" is not a date or an age: \(formsHint)")
        }
        return bound
    }

    /// The forms a bound may take, for error messages and help texts.
    public static let formsHint =
        "use 2025-05-01, 2025-05, 2025, 2025-05-01T09:30:00Z, or an age such as 36h, 7d, 2w, 3mo, 1y"

    /// The instant this bound stands for as the `role` end of a range, with `now` for ages.
    public func resolved(as role: Role, now: Date) -> Date {
        switch self {
        case .moment(let date): return date
        case .period(let start, let end): return role == .since ? start : end
        case .age(let seconds): return now.addingTimeInterval(-seconds)
        case .daysAgo(let days):
            let today = (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
            let start = today - Double(days) * 86_400
            return Date(timeIntervalSince1970: role == .since ? start : start + 86_400)
        }
    }

    /// The bound as a person reads it in a results footer: `2025-05-01`, `7 days ago`.
    package var summary: String {
        switch self {
        case .moment(let date): return Timestamp.format(date)
        case .period(let start, let end):
            let days = end.timeIntervalSince(start) / 86_400
            let text = Timestamp.format(start)
            return String(text.prefix(days > 300 ? 4 : days > 27 ? 7 : 10))
        case .age(let seconds):
            let hours = Int(seconds / 3_600)
            return hours % 24 == 0 ? "\(hours / 24) days ago" : "\(hours) hours ago"
        case .daysAgo(let days): return days == 0 ? "today" : days == 1 ? "yesterday" : "\(days) days ago"
        }
    }

    private static let units: [(suffix: String, seconds: Double)] = [
        ("mo", 30 * 86_400), ("h", 3_600), ("d", 86_400), ("w", 7 * 86_400), ("y", 365 * 86_400),
    ]

    private static func age(_ text: String) -> TimeInterval? {
        for unit in units where text.hasSuffix(unit.suffix) {
            let number = text.dropLast(unit.suffix.count)
            guard !number.isEmpty, number.allSatisfy(\.isASCII), let count = Int(number), count >= 0, count <= 100_000
            else { return nil }
            return Double(count) * unit.seconds
        }
        return nil
    }

    /// `2025`, `2025-05` or `2025-05-01` as a UTC period.
    private static func period(_ text: String) -> (start: Date, end: Date)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4, parts.dropFirst().allSatisfy({ $0.count == 2 }),
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0])
        else { return nil }
        let month = parts.count > 1 ? Int(parts[1])! : 1
        guard (1...12).contains(month) else { return nil }
        func start(_ year: Int, _ month: Int, _ day: Int) -> Date? {
            Timestamp.parse(String(format: "%04d-%02d-%02d", year, month, day))
        }
        switch parts.count {
        case 1:
            guard let from = start(year, 1, 1), let to = start(year + 1, 1, 1) else { return nil }
            return (from, to)
        case 2:
            guard let from = start(year, month, 1),
                let to = month == 12 ? start(year + 1, 1, 1) : start(year, month + 1, 1)
            else { return nil }
            return (from, to)
        default:
            guard let from = Timestamp.parse(text) else { return nil }
            return (from, from.addingTimeInterval(86_400))
        }
    }
}
