import Foundation
import GRDB

extension KnowledgeBase {
    /// Merges the topics at `sources` into the topic at `target`, atomically.
    ///
    /// Facts and subtopics move into the target; subtopics with the same name as one of the
    /// target's are merged recursively; then facts that now meet in the target's subtree and are
    /// near duplicates (with an ``embedder``) are merged. With `dryRun`, nothing is written.
    public func mergeTopics(_ sources: [String], into target: String, dryRun: Bool = false) async throws -> TopicMergeReport {
        let sourcePaths = try sources.map(TopicPath.init)
        let targetPath = try TopicPath(target)
        let namespace = namespace
        let snapshot = try await vectorIndex == nil ? nil : vectorSnapshot()
        let work: @Sendable (Database) throws -> TopicMergeReport = { db in
            let targetTopic = try TopicTable.require(db, namespace: namespace, path: targetPath)
            var merger = TopicMerger(db: db, namespace: namespace, now: Date())
            for path in sourcePaths {
                if path == targetPath || targetPath.key.hasPrefix(path.key + "/") {
                    throw MnemoError.invalidArgument("cannot merge \"\(path)\" into itself or its own subtopic \"\(target)\"")
                }
                try merger.merge(TopicTable.require(db, namespace: namespace, path: path), into: targetTopic)
            }
            let mergedFacts = try snapshot.map { try Self.mergeNearDuplicates(db, namespace: namespace, store: $0, under: targetTopic) } ?? 0
            return TopicMergeReport(target: targetTopic.path, mergedTopics: merger.mergedTopics,
                                    movedFacts: merger.movedFacts, mergedFacts: mergedFacts, dryRun: dryRun)
        }
        if dryRun {
            // Run the merge for real in a transaction that is always rolled back.
            return try await writer.write { db in
                var report: TopicMergeReport?
                try db.inSavepoint {
                    report = try work(db)
                    return .rollback
                }
                return report!
            }
        }
        return try await writer.write(work)
    }

    /// Finds near-duplicate facts and topic-name variants, and merges them unless `dryRun`.
    ///
    /// Facts are clustered with ``NearDuplicateRule`` (this needs an ``embedder``); each cluster
    /// folds into its oldest fact. Topics whose names differ only in case, accents, punctuation,
    /// `&`/`and` or word order under the same parent merge into the one with the most facts.
    public func dedupe(rule: NearDuplicateRule = NearDuplicateRule(), dryRun: Bool = false) async throws -> DedupeReport {
        let topicGroups = try await topicVariantGroups()
        if !dryRun {
            for group in topicGroups { _ = try await mergeTopics(group.variants, into: group.target) }
        }
        var clusters: [DuplicateCluster] = []
        if vectorIndex != nil {
            let store = try await vectorSnapshot()
            let facts = try await allFacts()
            if let code = store.namespaceCode(namespace) {
                let byID = Dictionary(uniqueKeysWithValues: facts.map { ($0.id, $0) })
                clusters = DuplicateFinder(rule: rule).clusters(in: store, namespaceCode: code, facts: byID).map { ids in
                    DuplicateCluster(survivor: byID[ids[0]]!, duplicates: ids.dropFirst().map { byID[$0]! })
                }
            }
        }
        if !dryRun, !clusters.isEmpty {
            let namespace = namespace
            let clusters = clusters
            try await writer.write { db in
                let now = Date()
                for cluster in clusters {
                    var survivor = try FactTable.require(db, namespace: namespace, id: cluster.survivor.id)
                    for duplicate in cluster.duplicates {
                        guard let current = try FactTable.find(db, namespace: namespace, id: duplicate.id) else { continue }
                        survivor = try FactMerger.merge(db, absorbed: current, into: survivor, now: now)
                    }
                }
            }
        }
        return DedupeReport(factClusters: clusters, topicGroups: topicGroups, dryRun: dryRun)
    }

    /// Groups of sibling topics whose names are variants of one another.
    func topicVariantGroups() async throws -> [TopicVariantGroup] {
        let tree = try await topicTree()
        var groups: [TopicVariantGroup] = []
        func visit(_ siblings: [TopicNode]) {
            for variants in Dictionary(grouping: siblings, by: { TopicNameVariants.key($0.topic.name) }).values where variants.count > 1 {
                let ordered = variants.sorted { ($0.subtreeFactCount, -$0.topic.id) > ($1.subtreeFactCount, -$1.topic.id) }
                groups.append(TopicVariantGroup(target: ordered[0].topic.path, variants: ordered.dropFirst().map(\.topic.path)))
            }
            for node in siblings { visit(node.children) }
        }
        visit(tree)
        return groups
    }

    func allFacts() async throws -> [Fact] {
        let namespace = namespace
        return try await writer.read { db in
            try FactTable.list(db, namespace: namespace, filter: FactFilter(activity: .all), limit: Int.max, offset: 0)
        }
    }

    /// Merges near-duplicate facts that share the subtree of `root`, within a transaction.
    static func mergeNearDuplicates(_ db: Database, namespace: String, store: VectorSnapshot, under root: Topic) throws -> Int {
        let facts = try FactTable.list(db, namespace: namespace, filter: FactFilter(topicPath: root.path, activity: .all),
                                       limit: Int.max, offset: 0)
        var local = VectorSnapshot(dimension: store.dimension)
        for fact in facts {
            if let vector = store.vector(of: fact.id) {
                local.upsert(id: fact.id, vector: Array(vector), attributes: .init(
                    namespace: namespace, topicID: fact.topicID, type: fact.type, importance: fact.importance, isActive: fact.isActive))
            }
        }
        guard let code = local.namespaceCode(namespace) else { return 0 }
        let byID = Dictionary(uniqueKeysWithValues: facts.map { ($0.id, $0) })
        var merged = 0
        let now = Date()
        for ids in DuplicateFinder(rule: NearDuplicateRule()).clusters(in: local, namespaceCode: code, facts: byID) {
            var survivor = byID[ids[0]]!
            for id in ids.dropFirst() {
                survivor = try FactMerger.merge(db, absorbed: byID[id]!, into: survivor, now: now)
                merged += 1
            }
        }
        return merged
    }
}

/// The loose form of a topic name under which spelling variants coincide.
enum TopicNameVariants {
    static func key(_ name: String) -> String {
        let words = TextNormalization.folded(name)
            .replacingOccurrences(of: "&", with: " and ")
            .split { !$0.isLetter && !$0.isNumber }
            .map(String.init)
            .filter { $0 != "and" }
        return words.sorted().joined(separator: " ")
    }
}
