import Foundation

extension SyncFact {
    /// The fields an operation may name, as ``SyncOperation/fields`` spells them.
    static let fieldNames: Set<String> = [
        "content", "type", "importance", "confidence", "topic", "is_active", "expires_at", "status", "progress",
        "target_date",
    ]

    /// The update that gives a stored fact this state's values of `fields` (its active state
    /// apart, as the knowledge base changes it apart).
    func update(fields: some Sequence<String>) throws -> (update: FactUpdate, isActive: Bool?) {
        var update = FactUpdate()
        var isActive: Bool?
        for field in Set(fields) {
            switch field {
            case "content": update.content = content
            case "type": update.type = type
            case "importance": update.importance = importance
            case "confidence": update.confidence = confidence
            case "topic": update.topicPath = try TopicPath(validating: topic)
            case "is_active": isActive = self.isActive
            case "expires_at": update.expiresAt = .some(expiresAt)
            case "status": if type == .goal { update.status = status }
            case "progress": if type == .goal { update.progress = progress }
            case "target_date": if type == .goal { update.targetDate = .some(targetDate) }
            default: continue
            }
        }
        return (update, isActive)
    }

    /// The state as a fact to add under its uid.
    func validated(embedding: [Float]?) throws -> ValidatedFact {
        var fact = try ValidatedFact(
            NewFact(
                content: content, topicPath: try TopicPath(validating: topic), type: type, importance: importance,
                confidence: confidence, sources: sources, createdAt: createdAt, updatedAt: updatedAt,
                isActive: isActive, expiresAt: expiresAt, status: status, progress: progress, targetDate: targetDate,
                completedAt: completedAt))
        fact.uid = uid
        fact.embedding = embedding
        return fact
    }
}
