extension HistoryEvent {
    /// What an event did, with its details typed.
    ///
    /// ```swift
    /// for event in try await kb.history(ofFact: id) {
    ///     if case .updated(let changes) = event.change {
    ///         for change in changes { print(change.field, change.old, "→", change.new) }
    ///     }
    /// }
    /// ```
    ///
    /// A text value that a record lacks (history written by hand, or by a version that did not
    /// record it) reads as an empty string; a missing number reads as `nil`.
    public enum Change: Hashable, Sendable {
        /// The fact was stored in the topic at `topicPath`; `source` is its first source.
        case added(topicPath: String, source: String?)
        /// The same fact was seen again (an exact duplicate); `source` is the sighting's first source.
        case mentioned(source: String?)
        /// Another fact, with `content`, was merged into this one: a stored fact (`mergedFactID`)
        /// merged by deduplication, or an incoming fact merged on arrival (`similarity`, `source`).
        case merged(content: String, mergedFactID: Int64?, similarity: Double?, source: String?)
        /// This fact, with `content`, was merged into fact `survivorID` and removed.
        case mergedInto(survivorID: Int64?, content: String)
        /// Fields changed, each from an old value to a new one.
        case updated([FieldChange])
        case deactivated
        case reactivated
        /// The fact, with `content`, was deleted.
        case deleted(content: String)
        case topicCreated(path: String)
        case topicRenamed(from: String, to: String)
        case topicMoved(from: String, to: String)
        /// Topics were merged: on the surviving topic, `mergedFrom` is the path of the topic merged
        /// into it; on the merged topic, `into` is the survivor's path.
        case topicMerged(mergedFrom: String?, into: String?)
        case topicDeleted(path: String)
    }

    /// One field of an ``Change/updated(_:)`` event.
    public struct FieldChange: Hashable, Sendable {
        /// The field's name: `content`, `type`, `importance`, `confidence`, `topic`, `expires_at`,
        /// or a goal's `status`, `progress`, `target_date` and `completed_at`.
        public var field: String
        /// The value before, as displayed (`medium`, `0.8`, a topic path, …).
        public var old: String
        /// The value after.
        public var new: String

        public init(field: String, old: String, new: String) {
            self.field = field
            self.old = old
            self.new = new
        }
    }

    /// The event's details, typed by its ``kind``.
    public var change: Change {
        let text = { (key: String) in self.details[key] ?? "" }
        switch kind {
        case .added: return .added(topicPath: text("topic"), source: details["source"])
        case .mentioned: return .mentioned(source: details["source"])
        case .merged:
            return .merged(
                content: text("content"), mergedFactID: details["merged_from"].flatMap { Int64($0) },
                similarity: details["similarity"].flatMap { Double($0) }, source: details["source"])
        case .mergedInto:
            return .mergedInto(survivorID: details["into"].flatMap { Int64($0) }, content: text("content"))
        case .updated:
            return .updated(
                details.sorted { $0.key < $1.key }.map { field, value in
                    Self.fieldChange(field, value)
                })
        case .deactivated: return .deactivated
        case .reactivated: return .reactivated
        case .deleted: return .deleted(content: text("content"))
        case .topicCreated: return .topicCreated(path: text("path"))
        case .topicRenamed: return .topicRenamed(from: text("from"), to: text("to"))
        case .topicMoved: return .topicMoved(from: text("from"), to: text("to"))
        case .topicMerged: return .topicMerged(mergedFrom: details["merged_from"], into: details["into"])
        case .topicDeleted: return .topicDeleted(path: text("path"))
        }
    }

    /// The separator between the old and the new value in the stored details of an update.
    static let updateArrow = " → "

    /// Reads `"old → new"`, cut at the first arrow (an old content that itself contains ` → `
    /// reads short: the stored text does not say which arrow separates the values).
    private static func fieldChange(_ field: String, _ value: String) -> FieldChange {
        guard let cut = value.firstRange(of: updateArrow) else { return FieldChange(field: field, old: value, new: "") }
        return FieldChange(field: field, old: String(value[..<cut.lowerBound]), new: String(value[cut.upperBound...]))
    }
}
