import Foundation

/// One fact as a line of Mnemo's JSONL export, which `ingest` reads back losslessly.
///
/// Keys come in a fixed order (`id, uid, namespace, topic, content, type, importance, confidence,
/// is_active, sources, mention_count, created_at, updated_at`, then `expires_at` when the fact has
/// one, then for a goal `status`, `progress`, and `target_date` and `completed_at` when it has
/// them) and numbers and dates in one
/// spelling, so the same facts always export to the same bytes.
enum ExportLine {
    static func encode(_ fact: Fact) -> String {
        var line = "{\"id\":\(fact.id)"
        line += ",\"uid\":" + quoted(fact.uid)
        line += ",\"namespace\":" + quoted(fact.namespace)
        line += ",\"topic\":" + quoted(fact.topicPath)
        line += ",\"content\":" + quoted(fact.content)
        line += ",\"type\":\"\(fact.type.rawValue)\""
        line += ",\"importance\":\"\(fact.importance.rawValue)\""
        // Swift prints the shortest text that reads back as the same Double.
        line += ",\"confidence\":\(fact.confidence)"
        line += ",\"is_active\":\(fact.isActive)"
        line += ",\"sources\":" + JSONText.array(fact.sources)
        line += ",\"mention_count\":\(fact.mentionCount)"
        line += ",\"created_at\":\"\(Timestamp.format(fact.createdAt))\""
        line += ",\"updated_at\":\"\(Timestamp.format(fact.updatedAt))\""
        if let expiresAt = fact.expiresAt { line += ",\"expires_at\":\"\(Timestamp.format(expiresAt))\"" }
        if let status = fact.status { line += ",\"status\":\"\(status.rawValue)\"" }
        if let progress = fact.progress { line += ",\"progress\":\(progress)" }
        if let targetDate = fact.targetDate { line += ",\"target_date\":\"\(Timestamp.format(targetDate))\"" }
        if let completedAt = fact.completedAt { line += ",\"completed_at\":\"\(Timestamp.format(completedAt))\"" }
        line += "}"
        return line
    }

    private static func quoted(_ text: String) -> String { JSONText.quoted(text) }
}
