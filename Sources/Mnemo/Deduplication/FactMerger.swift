import Foundation
import GRDB

/// Folds one fact into another inside the caller's transaction.
///
/// The survivor keeps its id and content (the oldest id wins), takes the highest importance and
/// confidence, the union of sources, the sum of mention counts and the earliest creation date,
/// and stays active if either fact was. Both facts' histories record the merge.
enum FactMerger {
    /// Merges stored fact `absorbed` into stored fact `survivor` and deletes `absorbed`.
    @discardableResult
    static func merge(_ db: Database, absorbed: Fact, into survivor: Fact, now: Date) throws -> Fact {
        let merged = try update(
            db, survivor, importance: absorbed.importance, confidence: absorbed.confidence,
            sources: absorbed.sources, mentions: absorbed.mentionCount,
            createdAt: absorbed.createdAt, isActive: absorbed.isActive, now: now)
        try FactTable.delete(db, absorbed, now: now, recording: .mergedInto, details: ["into": String(survivor.id)])
        try HistoryTable.record(
            db, namespace: survivor.namespace, factID: survivor.id, kind: .merged,
            details: ["merged_from": String(absorbed.id), "content": absorbed.content], at: now)
        return merged
    }

    /// Merges an incoming fact that was never stored into `survivor`.
    @discardableResult
    static func absorb(_ db: Database, _ incoming: ValidatedFact, into survivor: Fact, similarity: Double, now: Date)
        throws -> Fact
    {
        let merged = try update(
            db, survivor, importance: incoming.importance, confidence: incoming.confidence,
            sources: incoming.sources, mentions: incoming.mentionCount,
            createdAt: incoming.createdAt ?? survivor.createdAt, isActive: incoming.isActive, now: now)
        var details = ["content": incoming.content, "similarity": String(format: "%.3f", similarity)]
        if let source = incoming.sources.first { details["source"] = source }
        try HistoryTable.record(
            db, namespace: survivor.namespace, factID: survivor.id, kind: .merged, details: details, at: now)
        return merged
    }

    private static func update(
        _ db: Database, _ survivor: Fact, importance: Importance, confidence: Double, sources: [String],
        mentions: Int, createdAt: Date, isActive: Bool, now: Date
    ) throws -> Fact {
        var merged = survivor
        merged.importance = max(survivor.importance, importance)
        merged.confidence = max(survivor.confidence, confidence)
        merged.sources = SourceList.merging(survivor.sources, sources)
        merged.mentionCount = survivor.mentionCount + mentions
        merged.createdAt = min(survivor.createdAt, createdAt)
        merged.isActive = survivor.isActive || isActive
        merged.updatedAt = now
        try FactTable.saveMerged(db, merged)
        return merged
    }
}
