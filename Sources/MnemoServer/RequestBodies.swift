import Foundation
import Mnemo

/// `POST /v1/facts/search`: Lucid's fields (`query`, `user_id`, `limit`, `min_similarity`) and
/// the shared filter fields (`mode`, `type`, `importance`, `min_importance`, `topic`,
/// `include_inactive`, `since`, `until`, `status`).
struct SearchRequest: Decodable {
    var query: String?
    var userId: String?
    var limit: Int?
    var minSimilarity: Double?
    var mode: String?
    var type: StringList?
    var importance: StringList?
    var minImportance: String?
    var topic: String?
    var includeInactive: Bool?
    var since: String?
    var until: String?
    var status: StringList?

    /// The filter fields through the vocabulary every front door shares.
    func parameters(maximumLimit: Int) throws -> SearchParameters {
        var parameters = SearchParameters(maximumLimit: maximumLimit)
        try parameters.set(.mode, to: mode.map { [$0] } ?? [])
        try parameters.set(.type, to: type?.values ?? [])
        try parameters.set(.importance, to: importance?.values ?? [])
        try parameters.set(.minImportance, to: minImportance.map { [$0] } ?? [])
        try parameters.set(.status, to: status?.values ?? [])
        try parameters.set(.topic, to: topic.map { [$0] } ?? [])
        if let limit { try parameters.setLimit(limit) }
        if let minSimilarity { try parameters.setMinSimilarity(minSimilarity) }
        if let includeInactive { parameters.setIncludeInactive(includeInactive) }
        try parameters.set(.since, to: since.map { [$0] } ?? [])
        try parameters.set(.until, to: until.map { [$0] } ?? [])
        return parameters
    }
}

/// `PATCH /v1/facts/{id}` and `PATCH /api/facts/{id}`: any of `content`, `type`, `importance`,
/// `confidence`, `topic` (or `category`, as the Lucid client names it), `is_active`,
/// `expires_at` (a date, or `null` to remove the expiry), and for a goal `status`, `progress` and
/// `target_date` (a date, or `null` to remove it).
struct FactEditRequest: Decodable {
    var userId: String?
    var content: String?
    var type: String?
    var importance: String?
    var confidence: Double?
    var topic: String?
    var category: String?
    var isActive: Bool?
    /// `nil` when absent, `.some(nil)` for an explicit `null`: for this field `null` means "never".
    var expiresAt: String??
    var status: String?
    var progress: Double?
    /// `nil` when absent, `.some(nil)` for an explicit `null` (no target date).
    var targetDate: String??

    private enum CodingKeys: String, CodingKey {
        case userId, content, type, importance, confidence, topic, category, isActive, expiresAt, status, progress,
            targetDate
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        userId = try container.decodeIfPresent(String.self, forKey: .userId)
        content = try container.decodeIfPresent(String.self, forKey: .content)
        type = try container.decodeIfPresent(String.self, forKey: .type)
        importance = try container.decodeIfPresent(String.self, forKey: .importance)
        confidence = try container.decodeIfPresent(Double.self, forKey: .confidence)
        topic = try container.decodeIfPresent(String.self, forKey: .topic)
        category = try container.decodeIfPresent(String.self, forKey: .category)
        isActive = try container.decodeIfPresent(Bool.self, forKey: .isActive)
        if container.contains(.expiresAt) {
            expiresAt = .some(try container.decodeIfPresent(String.self, forKey: .expiresAt))
        }
        status = try container.decodeIfPresent(String.self, forKey: .status)
        progress = try container.decodeIfPresent(Double.self, forKey: .progress)
        if container.contains(.targetDate) {
            targetDate = .some(try container.decodeIfPresent(String.self, forKey: .targetDate))
        }
    }

    /// The change through the vocabulary every front door shares.
    func edit() throws -> FactEdit {
        var edit = FactEdit()
        if let content { try edit.setContent(content) }
        if let type { try edit.setType(type) }
        if let importance { try edit.setImportance(importance) }
        if let confidence { try edit.setConfidence(confidence) }
        if let path = topic ?? category { try edit.setTopic(path) }
        if let expiresAt { try edit.setExpiresAt(expiresAt) }
        if let status { try edit.setStatus(status) }
        if let progress { try edit.setProgress(progress) }
        if let targetDate { try edit.setTargetDate(targetDate) }
        edit.isActive = isActive
        try edit.requireChange()
        return edit
    }
}

/// `POST /v1/facts/extract`: the records the app's extractor produced.
struct ExtractRequest: Decodable {
    var userId: String?
    var conversationId: String?
    var limit: Int?
    var extracted: JSONValue?
}

/// `POST /api/topics/merge`: `{"sources": [path or id, …], "target": path or id, "dry_run": false}`
/// (`into` is accepted for `target`).
struct MergeRequest: Decodable {
    var sources: [TopicReference]?
    var target: TopicReference?
    var into: TopicReference?
    var dryRun: Bool?
}

/// A topic named by its path (a string) or its id (a number).
enum TopicReference: Decodable {
    case path(String)
    case id(Int64)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let path = try? container.decode(String.self) {
            self = .path(path)
        } else if let id = try? container.decode(Int64.self) {
            self = .id(id)
        } else if let number = try? container.decode(Double.self), number == number.rounded() {
            // A whole number too large for an id (JSON's integers have no bound) names no topic.
            self = .id(Int64(exactly: number) ?? -1)
        } else {
            throw DecodingError.typeMismatch(
                TopicReference.self,
                .init(
                    codingPath: decoder.codingPath, debugDescription: "a topic path (a string) or id (a number)"))
        }
    }

    /// The topic's path; an id is looked up in `tree`.
    func path(in tree: [TopicNode]) throws -> TopicPath {
        switch self {
        case .path(let path):
            return try TopicPath(path)
        case .id(let id):
            guard let node = tree.node(id: id) else { throw APIError.notFound("no topic with id \(id)") }
            return try TopicPath(node.topic.path)
        }
    }
}

/// A string or an array of strings, as a list (`"type": "goal"` or `"type": ["goal", "fact"]`).
struct StringList: Decodable {
    var values: [String]

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let single = try? container.decode(String.self) {
            values = [single]
        } else if let list = try? container.decode([String].self) {
            values = list
        } else {
            throw DecodingError.typeMismatch(
                StringList.self,
                .init(
                    codingPath: decoder.codingPath, debugDescription: "a string or an array of strings"))
        }
    }
}
