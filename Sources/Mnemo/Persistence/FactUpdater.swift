import Foundation
import GRDB

/// Applies a ``FactUpdate`` to one stored fact, recording what changed in its history.
struct FactUpdater {
    let db: Database
    let fact: Fact
    let now: Date
    /// The new content's vector, when the content changes and the knowledge base embeds;
    /// without it, a changed content loses its old vector, which no longer matches it.
    let embedding: [Float]?

    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` when the update sets a goal's field on
    ///   a fact that is not (or does not become) a goal, or a progress outside 0…1.
    func apply(_ update: FactUpdate) throws -> Fact {
        var assignments: [String] = []
        var arguments: StatementArguments = []
        var details: [String: String] = [:]

        func change(_ column: String, _ field: String, old: String, new: String, value: (any DatabaseValueConvertible)?)
        {
            guard old != new else { return }
            assignments.append("\(column) = ?")
            arguments += [value]
            details[field] = old + HistoryEvent.updateArrow + new
        }

        if let content = update.content {
            let content = try ValidatedFact.validate(content: content)
            let key = TextNormalization.factKey(content)
            if let other = try FactTable.find(db, namespace: fact.namespace, contentKey: key, excluding: fact.id) {
                throw MnemoError.conflict(.duplicateFact(existingID: other.id))
            }
            change("content", "content", old: fact.content, new: content, value: content)
            if content != fact.content {
                assignments.append("content_key = ?")
                arguments += [key]
                if let embedding {
                    try EmbeddingTable.write(db, factID: fact.id, vector: embedding)
                } else {
                    try EmbeddingTable.delete(db, factID: fact.id)
                }
            }
        }
        if let type = update.type {
            change("type", "type", old: fact.type.rawValue, new: type.rawValue, value: type.rawValue)
        }
        if let importance = update.importance {
            change(
                "importance", "importance", old: fact.importance.rawValue, new: importance.rawValue,
                value: importance.rank)
        }
        if let confidence = update.confidence {
            try ValidatedFact.validate(confidence: confidence)
            change("confidence", "confidence", old: "\(fact.confidence)", new: "\(confidence)", value: confidence)
        }
        if let topicPath = update.topicPath {
            let topic = try TopicTable.ensure(db, namespace: fact.namespace, path: topicPath, at: now)
            change("topic_id", "topic", old: fact.topicPath, new: topic.path, value: topic.id)
        }
        if let expiresAt = update.expiresAt {
            let show = { (date: Date?) in date.map(Timestamp.format) ?? "never" }
            change(
                "expires_at", "expires_at", old: show(fact.expiresAt), new: show(expiresAt),
                value: expiresAt.map(Timestamp.databaseText))
        }
        try applyGoalFields(update, change: change)
        guard !assignments.isEmpty else { return fact }
        assignments.append("updated_at = ?")
        arguments += [Timestamp.databaseText(now), fact.id]
        try db.execute(sql: "UPDATE fact SET \(assignments.joined(separator: ", ")) WHERE id = ?", arguments: arguments)
        try HistoryTable.record(
            db, namespace: fact.namespace, factID: fact.id, kind: .updated, details: details, at: now)
        return try FactTable.require(db, namespace: fact.namespace, id: fact.id)
    }

    /// A goal's fields: status (with the completion date it implies), progress and target date,
    /// each change shown in the history as `old → new`; a goal that becomes another type loses
    /// them, a fact that becomes a goal starts active at 0.
    private func applyGoalFields(
        _ update: FactUpdate,
        change: (String, String, String, String, (any DatabaseValueConvertible)?) -> Void
    ) throws {
        let type = update.type ?? fact.type
        try GoalFields.validate(
            type: type, status: update.status, progress: update.progress, targetDate: update.targetDate ?? nil,
            completedAt: nil)
        if type != .goal, update.targetDate == .some(nil) {
            throw MnemoError.invalidInput(
                field: "target_date", reason: "only a goal has a target_date; this fact is a \(type.rawValue)")
        }
        let show = { (date: Date?) in date.map(Timestamp.format) ?? "none" }
        let number = { (value: Double?) in value.map { "\($0)" } ?? "none" }
        let (oldStatus, oldProgress) = (fact.status, fact.progress)
        let newStatus = type == .goal ? update.status ?? oldStatus ?? .active : nil
        let newProgress = type == .goal ? update.progress ?? oldProgress ?? 0 : nil
        let newTarget = type == .goal ? update.targetDate ?? fact.targetDate : nil
        let newCompleted =
            newStatus == .completed ? (oldStatus == .completed ? fact.completedAt ?? now : now) : nil
        change(
            "goal_status", "status", oldStatus?.rawValue ?? "none", newStatus?.rawValue ?? "none",
            newStatus?.rawValue)
        change("goal_progress", "progress", number(oldProgress), number(newProgress), newProgress)
        change(
            "target_date", "target_date", show(fact.targetDate), show(newTarget), newTarget.map(Timestamp.databaseText))
        change(
            "completed_at", "completed_at", show(fact.completedAt), show(newCompleted),
            newCompleted.map(Timestamp.databaseText))
    }
}
