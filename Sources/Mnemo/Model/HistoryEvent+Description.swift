import Foundation

/// One line per event, so that an app shows a fact's history without a switch over every kind:
///
/// ```swift
/// for event in try await kb.history(ofFact: id) { print(event) }
/// // 2025-03-14T09:21:00Z fact #3: added to "Technology/iOS Development" (from conv-17)
/// // 2025-03-15T10:02:00Z fact #3: updated importance: medium → high
/// ```
extension HistoryEvent: CustomStringConvertible {
    /// The date, what the event is about (`fact #3`, `topic #2`) and ``Change/description``.
    public var description: String {
        let subject = factID.map { "fact #\($0)" } ?? topicID.map { "topic #\($0)" }
        return "\(Timestamp.format(date)) " + (subject.map { "\($0): " } ?? "") + change.description
    }
}

extension HistoryEvent.Change: CustomStringConvertible {
    /// What happened, as a short sentence without a subject: `updated importance: medium → high`,
    /// `merged into fact #3`, `topic renamed "Sport" → "Sports"`.
    public var description: String {
        switch self {
        case .added(let topicPath, let source):
            "added to \(Self.quoted(topicPath))" + Self.from(source)
        case .mentioned(let source):
            "mentioned again" + Self.from(source)
        case .merged(let content, let mergedFactID, let similarity, let source):
            "absorbed \(Self.quoted(content))"
                + Self.details([
                    mergedFactID.map { "fact #\($0)" },
                    similarity.map { "similarity \(Self.rounded($0))" },
                    source.map { "from \($0)" },
                ])
        case .mergedInto(let survivorID, let content):
            "merged \(Self.quoted(content)) into " + (survivorID.map { "fact #\($0)" } ?? "another fact")
        case .updated(let changes):
            "updated " + (changes.isEmpty ? "nothing" : changes.map(\.description).joined(separator: "; "))
        case .deactivated:
            "deactivated"
        case .reactivated:
            "reactivated"
        case .deleted(let content):
            "deleted \(Self.quoted(content))"
        case .topicCreated(let path):
            "topic \(Self.quoted(path)) created"
        case .topicRenamed(let from, let to):
            "topic renamed \(Self.quoted(from)) → \(Self.quoted(to))"
        case .topicMoved(let from, let to):
            "topic moved \(Self.quoted(from)) → \(Self.quoted(to))"
        case .topicMerged(let mergedFrom?, _):
            "topic \(Self.quoted(mergedFrom)) merged into this one"
        case .topicMerged(nil, let into?):
            "topic merged into \(Self.quoted(into))"
        case .topicMerged(nil, nil):
            "topic merged"
        case .topicDeleted(let path):
            "topic \(Self.quoted(path)) deleted"
        }
    }

    private static func quoted(_ text: String) -> String { "\"\(text)\"" }

    private static func from(_ source: String?) -> String {
        source.map { " (from \($0))" } ?? ""
    }

    private static func details(_ parts: [String?]) -> String {
        let present = parts.compactMap { $0 }
        return present.isEmpty ? "" : " (" + present.joined(separator: ", ") + ")"
    }

    private static func rounded(_ value: Double) -> String {
        String(format: "%.2f", value)
    }
}

extension HistoryEvent.FieldChange: CustomStringConvertible {
    /// `importance: medium → high`.
    public var description: String { "\(field): \(old) → \(new)" }
}
