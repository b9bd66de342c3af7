import Foundation
import GRDB

/// Finds, for a fact about to be stored, a stored fact it is a near duplicate of.
///
/// It looks in a snapshot of the vector index as of the write transaction's start, and in the
/// facts added earlier in the same transaction (which the index cannot see until the commit).
/// Those are judged as they were added, so they need not be in the database yet: the writer
/// inserts new facts in bulk, and only a merge into one of them needs it stored first.
struct NearDuplicateMatcher {
    let store: VectorSnapshot
    let rule: NearDuplicateRule
    private var pending: [(id: Int64, namespace: String, type: FactType, vector: [Float])] = []
    private var pendingFacts: [Int64: Fact] = [:]

    init(store: VectorSnapshot, rule: NearDuplicateRule) {
        self.store = store
        self.rule = rule
    }

    /// What the rule says about a fact and the stored facts closest to it.
    struct Judgement {
        /// The stored fact that the new one duplicates, with their similarity.
        var duplicate: (fact: Fact, similarity: Double)?
        /// Stored facts close to the new one that the rule says differ from it, with the date each
        /// was stated.
        var conflicts: [(id: Int64, createdAt: Date, reason: String, similarity: Double)] = []
    }

    /// The stored fact that `fact` duplicates, with their similarity, if any.
    func match(_ db: Database, namespace: String, fact: ValidatedFact) throws -> (fact: Fact, similarity: Double)? {
        try judge(db, namespace: namespace, fact: fact).duplicate
    }

    /// The stored fact that `fact` duplicates, or else the stored facts it conflicts with.
    func judge(_ db: Database, namespace: String, fact: ValidatedFact) throws -> Judgement {
        var judgement = Judgement()
        guard let vector = fact.embedding else { return judgement }
        var candidates: [(id: Int64, similarity: Float)] = []
        if let code = store.namespaceCode(namespace) {
            let filter = VectorFilter(FactFilter(types: [fact.type]), namespaceCode: code, topicIDs: nil)
            candidates = store.nearest(
                to: vector, k: Self.candidateCount, filter: filter, minSimilarity: Float(rule.minimumSimilarity),
                threads: 1
            )
            .map { ($0.id, $0.similarity) }
        }
        for added in pending where added.namespace == namespace && added.type == fact.type {
            let similarity = added.vector.withUnsafeBufferPointer { a in
                vector.withUnsafeBufferPointer { VectorMath.dot(a.baseAddress!, $0.baseAddress!, count: vector.count) }
            }
            if Double(similarity) >= rule.minimumSimilarity { candidates.append((added.id, similarity)) }
        }
        // The closest few only, wherever they come from: a batch of near-identical lines (a diary,
        // "…week 98", "…week 99") would otherwise judge every earlier line of the batch, and the
        // batch would cost time quadratic in its length. The stored facts are capped at
        // `candidateCount` by the scan; so are the ones added in this transaction.
        var parsedFact: ParsedFact?
        for candidate in candidates.sorted(by: { $0.similarity > $1.similarity }).prefix(Self.candidateCount) {
            // Content and type, all the rule reads, never change within a transaction.
            guard
                let stored = try pendingFacts[candidate.id]
                    ?? FactTable.find(db, namespace: namespace, id: candidate.id),
                stored.type == fact.type
            else { continue }
            let parsed = parsedFact ?? ParsedFact(fact.content)
            parsedFact = parsed
            switch rule.verdict(
                ParsedFact(stored.content), parsed, type: fact.type, similarity: Double(candidate.similarity))
            {
            case .duplicate:
                judgement.duplicate = (stored, Double(candidate.similarity))
                judgement.conflicts = []
                return judgement
            case .conflict(let reason) where stored.isActive && fact.isActive:
                judgement.conflicts.append((stored.id, stored.createdAt, reason.rawValue, Double(candidate.similarity)))
            case .conflict, .distinct:
                continue
            }
        }
        return judgement
    }

    /// How many of the closest facts a new fact is judged against.
    static let candidateCount = 5

    /// Makes a fact added in this transaction visible to later matches.
    mutating func didAdd(_ fact: Fact, vector: [Float]?) {
        guard let vector else { return }
        pending.append((fact.id, fact.namespace, fact.type, vector))
        pendingFacts[fact.id] = fact
    }

    /// Forgets a fact added in this transaction that the transaction then deleted, erased or
    /// reworded (a sync push may do all in one): later matches must not meet its old state.
    mutating func didRemove(_ id: Int64) {
        pending.removeAll { $0.id == id }
        pendingFacts[id] = nil
    }
}
