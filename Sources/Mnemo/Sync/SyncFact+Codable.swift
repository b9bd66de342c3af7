import Foundation

// A synced fact's dates travel as ``Timestamp`` text (UTC, to the millisecond) whatever the
// coder's date strategy: a replica must store the very millisecond the server stored, and
// JSONDecoder's own strategies either drop the fraction (`.iso8601`) or expect numbers.
extension SyncFact {
    private enum CodingKeys: String, CodingKey {
        case uid, content, topic, type, importance, confidence, isActive, sources, mentionCount, createdAt, updatedAt
        case expiresAt, status, progress, targetDate, completedAt, vector
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func date(_ key: CodingKeys) throws -> Date? {
            guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let date = Timestamp.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "\"\(text.prefix(64))\" is not an ISO 8601 date")
            }
            return date
        }
        uid = try container.decode(String.self, forKey: .uid)
        content = try container.decode(String.self, forKey: .content)
        topic = try container.decode(String.self, forKey: .topic)
        type = try container.decode(FactType.self, forKey: .type)
        importance = try container.decode(Importance.self, forKey: .importance)
        confidence = try container.decode(Double.self, forKey: .confidence)
        isActive = try container.decode(Bool.self, forKey: .isActive)
        sources = try container.decodeIfPresent([String].self, forKey: .sources) ?? []
        mentionCount = try container.decodeIfPresent(Int.self, forKey: .mentionCount) ?? 1
        guard let created = try date(.createdAt) else {
            throw DecodingError.keyNotFound(
                CodingKeys.createdAt, .init(codingPath: container.codingPath, debugDescription: "created_at is missing")
            )
        }
        createdAt = created
        updatedAt = try date(.updatedAt) ?? created
        expiresAt = try date(.expiresAt)
        status = try container.decodeIfPresent(GoalStatus.self, forKey: .status)
        progress = try container.decodeIfPresent(Double.self, forKey: .progress)
        targetDate = try date(.targetDate)
        completedAt = try date(.completedAt)
        vector = try container.decodeIfPresent(String.self, forKey: .vector)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uid, forKey: .uid)
        try container.encode(content, forKey: .content)
        try container.encode(topic, forKey: .topic)
        try container.encode(type, forKey: .type)
        try container.encode(importance, forKey: .importance)
        try container.encode(confidence, forKey: .confidence)
        try container.encode(isActive, forKey: .isActive)
        try container.encode(sources, forKey: .sources)
        try container.encode(mentionCount, forKey: .mentionCount)
        try container.encode(Timestamp.format(createdAt), forKey: .createdAt)
        try container.encode(Timestamp.format(updatedAt), forKey: .updatedAt)
        try container.encodeIfPresent(expiresAt.map(Timestamp.format), forKey: .expiresAt)
        try container.encodeIfPresent(status, forKey: .status)
        try container.encodeIfPresent(progress, forKey: .progress)
        try container.encodeIfPresent(targetDate.map(Timestamp.format), forKey: .targetDate)
        try container.encodeIfPresent(completedAt.map(Timestamp.format), forKey: .completedAt)
        try container.encodeIfPresent(vector, forKey: .vector)
    }
}
