import Foundation

extension SyncFact {
    /// The fields an operation may name, as ``SyncOperation/fields`` spells them.
    static let fieldNames = Set(FactField.allCases.map(\.rawValue))

    /// The update that gives a stored fact this state's values of `fields` (its active state
    /// apart, as the knowledge base changes it apart). Names that are not fields are passed by.
    func update(fields: some Sequence<String>) throws -> (update: FactUpdate, isActive: Bool?) {
        var update = FactUpdate()
        var isActive: Bool?
        for field in Set(fields.compactMap(FactField.init(rawValue:))) {
            switch field {
            case .content: update.content = content
            case .type: update.type = type
            case .importance: update.importance = importance
            case .confidence: update.confidence = confidence
            case .topic: update.topicPath = try TopicPath(validating: topic)
            case .isActive: isActive = self.isActive
            case .expiresAt: update.expiresAt = .some(expiresAt)
            case .status: if type == .goal { update.status = status }
            case .progress: if type == .goal { update.progress = progress }
            case .targetDate: if type == .goal { update.targetDate = .some(targetDate) }
            }
        }
        return (update, isActive)
    }

    /// The fields in which `fact` holds another value than this state (a topic by its folded path).
    func fields(differingFrom fact: Fact) -> [FactField] {
        FactField.allCases.filter { field in
            switch field {
            case .content: fact.content != content
            case .type: fact.type != type
            case .importance: fact.importance != importance
            case .confidence: fact.confidence != confidence
            case .topic: (try? TopicPath(fact.topicPath))?.key != (try? TopicPath(topic))?.key
            case .isActive: fact.isActive != isActive
            case .expiresAt: fact.expiresAt != expiresAt
            case .status: fact.status != status
            case .progress: fact.progress != progress
            case .targetDate: fact.targetDate != targetDate
            }
        }
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
