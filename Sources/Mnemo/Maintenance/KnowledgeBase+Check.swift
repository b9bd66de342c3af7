import Foundation
import GRDB

extension KnowledgeBase {
    /// Checks the whole database file (every namespace) and, with `repair`, rebuilds what is
    /// derived from the facts: the full-text index, vectors, topic paths.
    ///
    /// The checks: SQLite's `integrity_check`; FTS5's `integrity-check` of the full-text index
    /// against the facts; facts without vectors and vectors without facts (or of the wrong
    /// size); the recorded model identity; the topic tree (orphans, cycles, paths, keys and
    /// depths that disagree with the parents; facts whose topic is missing or in another
    /// namespace); rows left of facts that tombstones say were erased; facts of a namespace that
    /// share a normalized content (which Mnemo stores once). Missing vectors count as
    /// a problem only when the database holds vectors or records a model: a knowledge base only
    /// ever written without embeddings has none by design.
    ///
    /// The repair runs in one transaction (vectors are embedded first, outside it) and the
    /// checks run again afterwards: ``CheckReport/problems`` is what is left. Facts of the same
    /// content are merged into the oldest of them, as a repeat is counted when it is stored. Damage that
    /// `integrity_check` reports and a model mismatch are not repaired: restore an export into
    /// a new database, or run ``reembed(batchSize:progress:)``.
    public func check(repair: Bool = false) async throws -> CheckReport {
        let found = try await inspect()
        guard repair, !found.problems.isEmpty else {
            return CheckReport(problems: found.problems, found: found.problems, repairs: [], checked: found.checked)
        }
        var repairs: [String] = []
        var vectors: [Int64: [Float]] = [:]
        let needVectors = found.missingVectors + found.wrongSizeVectors
        if !needVectors.isEmpty, embedder != nil, found.identityMatches {
            let contents = try await writer.read { db in try DatabaseCheck.contents(db, factIDs: needVectors) }
            for batch in contents.chunked(into: 64) {
                if let embedded = try await embed(batch.map(\.content)) {
                    for (fact, vector) in zip(batch, embedded) { vectors[fact.id] = vector }
                }
            }
        }
        let planned = found
        let embeddedVectors = vectors
        let identity = embedder?.identity
        let now = now
        repairs = try await writer.write { db in
            var done: [String] = []
            // First, so that the triggers the later repairs fire update a sound index.
            if planned.fullTextDamaged {
                try DatabaseCheck.rebuildFullTextIndex(db)
                done.append("rebuilt the full-text index")
            }
            if !planned.orphanVectors.isEmpty || !planned.wrongSizeVectors.isEmpty {
                try DatabaseCheck.deleteVectors(db, factIDs: planned.orphanVectors + planned.wrongSizeVectors)
                done.append("deleted \(planned.orphanVectors.count + planned.wrongSizeVectors.count) stray vectors")
            }
            if !embeddedVectors.isEmpty {
                for (id, vector) in embeddedVectors { try EmbeddingTable.write(db, factID: id, vector: vector) }
                if let identity, try EmbeddingTable.storedIdentity(db) == nil {
                    try EmbeddingTable.setIdentity(db, identity)
                }
                done.append("embedded \(embeddedVectors.count) facts that had no vector")
            }
            if planned.erasedRemains > 0 {
                try DatabaseCheck.deleteErasedRemains(db)
                done.append("erased \(planned.erasedRemains) rows left of erased facts")
            }
            let audit = TopicTreeAudit(try DatabaseCheck.topicRows(db))
            if !audit.corrected.isEmpty {
                try DatabaseCheck.writeTopics(db, audit.corrected)
                done.append(
                    "rewrote the parent, path or keys of \(audit.corrected.count) topics"
                        + (audit.orphans.isEmpty && audit.cycles.isEmpty
                            ? "" : " (\(audit.orphans.count) orphans and \(audit.cycles.count) cycles made top-level)"))
            }
            let badTopics = try DatabaseCheck.factsWithBadTopic(db)
            if !badTopics.isEmpty {
                var recovered: [String: Topic] = [:]
                for fact in badTopics {
                    let topic =
                        try recovered[fact.namespace]
                        ?? TopicTable.ensure(
                            db, namespace: fact.namespace, path: TopicPath(validSegments: ["Recovered"]))
                    recovered[fact.namespace] = topic
                    try DatabaseCheck.moveFact(db, id: fact.id, toTopic: topic.id)
                }
                done.append("moved \(badTopics.count) facts whose topic was missing to \"Recovered\"")
            }
            // Last, among facts whose erased remains are gone and whose topics are sound again.
            if planned.duplicateFacts > 0 {
                let merged = try DatabaseCheck.mergeDuplicateContent(db, DatabaseCheck.duplicateContent(db), now: now)
                done.append("merged \(merged) facts into the oldest fact of the same content")
            }
            return done
        }
        let after = try await inspect()
        return CheckReport(problems: after.problems, found: found.problems, repairs: repairs, checked: after.checked)
    }

    /// The findings of one pass of the checks.
    private struct Inspection: Sendable {
        var problems: [CheckReport.Problem] = []
        var checked: [CheckReport.Problem.Code] = []
        var fullTextDamaged = false
        var missingVectors: [Int64] = []
        var orphanVectors: [Int64] = []
        var wrongSizeVectors: [Int64] = []
        var identityMatches = true
        var erasedRemains = 0
        /// Facts that repeat an older fact's content in their namespace.
        var duplicateFacts = 0
    }

    private func inspect() async throws -> Inspection {
        let identity = embedder?.identity
        let found = try await writer.read { db in
            var result = Inspection()
            func add(_ code: CheckReport.Problem.Code, _ message: String, count: Int? = nil) {
                result.problems.append(CheckReport.Problem(code: code, message: message, count: count))
            }
            result.checked.append(.sqliteIntegrity)
            let damage = try DatabaseCheck.integrityProblems(db)
            if !damage.isEmpty {
                add(
                    .sqliteIntegrity,
                    "SQLite reports damage: \(damage.prefix(3).joined(separator: "; "))"
                        + (damage.count > 3 ? " (and \(damage.count - 3) more)" : "")
                        + "; restore an export into a new database",
                    count: damage.count)
            }

            let stored = try EmbeddingTable.storedIdentity(db)
            let vectorCount = try EmbeddingTable.vectorCount(db)
            let dimension = identity?.dimension ?? stored?.dimension
            result.checked.append(.modelIdentity)
            if vectorCount > 0, stored == nil {
                add(
                    .modelIdentity,
                    "\(vectorCount) vectors are stored but no model identity is recorded; run `mnemo reembed`")
                result.identityMatches = false
            } else if let stored, let identity, stored != identity, vectorCount > 0 {
                add(
                    .modelIdentity,
                    "the vectors were made with \(stored), not \(identity); run `mnemo reembed` with the model you use")
                result.identityMatches = false
            }
            result.checked.append(.factsWithoutVectors)
            if vectorCount > 0 || stored != nil {
                result.missingVectors = try DatabaseCheck.factsWithoutVectors(db)
                if !result.missingVectors.isEmpty {
                    add(
                        .factsWithoutVectors,
                        "\(result.missingVectors.count) facts have no vector: semantic search cannot find them",
                        count: result.missingVectors.count)
                }
            }
            result.checked.append(.strayVectors)
            let stray = try DatabaseCheck.strayVectors(db, dimension: dimension)
            result.orphanVectors = stray.orphans
            result.wrongSizeVectors = stray.wrongSize
            if !stray.orphans.isEmpty {
                add(.strayVectors, "\(stray.orphans.count) vectors belong to no fact", count: stray.orphans.count)
            }
            if !stray.wrongSize.isEmpty {
                add(
                    .strayVectors, "\(stray.wrongSize.count) vectors do not have \(dimension ?? 0) components",
                    count: stray.wrongSize.count)
            }

            result.checked += [.orphanTopic, .topicCycle, .topicPath, .factTopic]
            let audit = TopicTreeAudit(try DatabaseCheck.topicRows(db))
            if !audit.orphans.isEmpty {
                add(
                    .orphanTopic,
                    "\(audit.orphans.count) topics have a missing parent or one in another namespace (ids \(Self.sample(audit.orphans)))",
                    count: audit.orphans.count)
            }
            if !audit.cycles.isEmpty {
                add(
                    .topicCycle,
                    "\(audit.cycles.count) cycles of topics that are their own ancestors (ids \(Self.sample(audit.cycles.map { $0[0] })))",
                    count: audit.cycles.count)
            }
            let wrongPaths = audit.corrected.filter { !audit.orphans.contains($0.id) }
            if !wrongPaths.isEmpty {
                add(
                    .topicPath,
                    "\(wrongPaths.count) topics have a path, key or depth that disagrees with their parents (ids \(Self.sample(wrongPaths.map(\.id))))",
                    count: wrongPaths.count)
            }
            let badTopics = try DatabaseCheck.factsWithBadTopic(db)
            if !badTopics.isEmpty {
                add(
                    .factTopic, "\(badTopics.count) facts have a missing topic or one in another namespace",
                    count: badTopics.count)
            }
            result.checked.append(.erasedRemains)
            result.erasedRemains = try DatabaseCheck.erasedRemains(db)
            if result.erasedRemains > 0 {
                add(
                    .erasedRemains,
                    "\(result.erasedRemains) fact rows, vectors or history events belong to erased facts",
                    count: result.erasedRemains)
            }
            result.checked.append(.duplicateContent)
            let duplicates = try DatabaseCheck.duplicateContent(db)
            result.duplicateFacts = duplicates.reduce(0) { $0 + $1.ids.count - 1 }
            if result.duplicateFacts > 0 {
                add(
                    .duplicateContent,
                    "\(result.duplicateFacts) facts repeat the content of an older fact of their namespace (ids \(Self.sample(duplicates.flatMap { $0.ids.dropFirst() })))",
                    count: result.duplicateFacts)
            }
            return result
        }
        // FTS5 runs its check as an INSERT of a command row, which a read-only connection refuses;
        // it changes nothing.
        let fullTextProblem = try await writer.write { db in DatabaseCheck.fullTextProblem(db) }
        var result = found
        result.checked.insert(.fullTextIndex, at: 1)
        if let fullTextProblem {
            result.fullTextDamaged = true
            result.problems.insert(
                CheckReport.Problem(
                    code: .fullTextIndex,
                    message: "the full-text index disagrees with the facts and topic paths (\(fullTextProblem))"),
                at: result.problems.firstIndex { $0.code != .sqliteIntegrity } ?? result.problems.endIndex)
        }
        return result
    }

    private static func sample(_ ids: [Int64]) -> String {
        ids.prefix(5).map(String.init).joined(separator: ", ") + (ids.count > 5 ? ", …" : "")
    }
}
