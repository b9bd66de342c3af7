/// A record that was not stored, where it was, and why.
///
/// Its ``description`` reads as one line, such as
/// `line 7: unknown type "opinion" (expected fact, preference, goal or experience)`.
public struct IngestRejection: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Why a record was rejected, as a stable machine-readable code.
    public enum Code: String, CaseIterable, Hashable, Sendable, Codable {
        /// The record is not valid JSON (JSONL lines only; a whole document that does not parse
        /// is a ``MnemoError/unreadableInput(_:)``).
        case invalidJSON = "invalid_json"
        /// The record is valid JSON but not an object.
        case notAnObject = "not_an_object"
        /// The record has no `content` (or it is `null`).
        case missingContent = "missing_content"
        /// The `content` is empty or only whitespace.
        case emptyContent = "empty_content"
        /// The `content` is longer than ``Fact/maximumContentLength`` characters.
        case contentTooLong = "content_too_long"
        /// A field has the wrong JSON type, such as a number for `topic`, or a value its type
        /// cannot hold, such as an empty `namespace` or a `mention_count` of 0.
        case wrongFieldType = "wrong_field_type"
        /// The `type` is not `fact`, `preference`, `goal` or `experience`.
        case unknownType = "unknown_type"
        /// The `importance` is not `high`, `medium`, `low` or `none`.
        case unknownImportance = "unknown_importance"
        /// The `confidence` is a number outside 0…1.
        case confidenceOutOfRange = "confidence_out_of_range"
        /// The `confidence` is not a number.
        case confidenceNotNumber = "confidence_not_number"
        /// `created_at` or `updated_at` is not an ISO 8601 date, or `updated_at` precedes `created_at`.
        case badDate = "bad_date"
        /// The topic path (`topic`, `category`, or a tree node's `path` or `name`) is empty, has an
        /// empty segment (`a//b`, `/`), or a node name contains `/`.
        case badTopic = "bad_topic"
        /// The record names a namespace other than the one the ingest is pinned to (see
        /// ``NamespacePolicy/pinned``).
        case foreignNamespace = "foreign_namespace"
        /// The line is not valid UTF-8.
        case invalidUTF8 = "invalid_utf8"
        /// The content holds a NUL character, which the database cannot store.
        case nulCharacter = "nul_character"
        /// The line is longer than ``IngestOptions/maximumLineLength`` bytes; it is skipped unread.
        case recordTooLong = "record_too_long"
        /// The record would have added a new fact to a namespace that holds its limit of facts
        /// (see ``QuotaPolicy``). Valid otherwise: it lands once there is room.
        case quotaExceeded = "quota_exceeded"
        /// The `status` is not `active`, `paused`, `completed` or `abandoned`.
        case unknownStatus = "unknown_status"
        /// The `progress` is not a number from 0 to 1.
        case progressOutOfRange = "progress_out_of_range"
        /// A fact that is not a goal carries a goal's field (`status`, `progress`, `target_date`,
        /// `completed_at`).
        case notAGoal = "not_a_goal"
    }

    /// The record's position in the input, from 1, in document order. In JSONL, blank lines are
    /// not records, so this is the line number less the blank lines before it.
    public var record: Int
    /// The line where the record starts, from 1, when known.
    public var line: Int?
    public var code: Code
    /// What is wrong, in words, without the position: `unknown type "opinion" (expected …)`.
    public var reason: String

    /// Creates a rejection.
    package init(record: Int, line: Int?, code: Code, reason: String) {
        self.record = record
        self.line = line
        self.code = code
        self.reason = reason
    }

    /// The position and the reason: `line 7: …`, or `record 3: …` when the line is unknown.
    public var description: String {
        if let line { return "line \(line): \(reason)" }
        return "record \(record): \(reason)"
    }
}

/// A record-level problem found while reading or checking a record, before its position is known.
struct RecordProblem: Error, Sendable {
    var code: IngestRejection.Code
    var reason: String

    init(_ code: IngestRejection.Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
