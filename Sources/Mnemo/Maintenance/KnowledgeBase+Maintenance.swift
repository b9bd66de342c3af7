import Foundation
import GRDB

extension KnowledgeBase {
    /// Merges the topics at `sources` into the topic at `target`, atomically.
    ///
    /// When no topic is at `target`, it is created with its missing ancestors, as `mv` does.
    /// Facts and subtopics move into the target; subtopics with the same name as one of the
    /// target's are merged recursively; then facts that now meet in the target's subtree and are
    /// near duplicates (with an ``embedder``) are merged. With `dryRun`, nothing is written.
    ///
    /// Repeating a merge is harmless, so an app can run the same merge every time it starts: a
    /// source that no longer exists because an earlier merge already folded it into this target
    /// (the target's history says so) is skipped and listed in
    /// ``TopicMergeReport/alreadyMerged``. When every source was merged before, nothing is
    /// written and no operation is recorded.
    /// - Throws: ``MnemoError/notFound(_:)`` with ``MnemoError/Missing/topic(_:)`` for a source
    ///   that does not exist and was never merged (a typo), or with
    ///   ``MnemoError/Missing/mergedTopic(_:into:)`` for one an earlier merge folded into
    ///   another topic than the target, naming where it went;
    ///   ``MnemoError/invalidInput(field:reason:)`` for a source that is the target or one of
    ///   its ancestors.
    @discardableResult
    public func mergeTopics(_ sources: [TopicPath], into target: TopicPath, dryRun: Bool = false) async throws
        -> TopicMergeReport
    {
        let sourcePaths = sources
        let targetPath = target
        let namespace = namespace
        let vectorIndex = vectorIndex
        let work: @Sendable (Database) throws -> TopicMergeReport = { db in
            // Taken inside the write transaction: it catches the index up to the latest state,
            // including facts another process or instance added a moment ago.
            let snapshot = try vectorIndex?.snapshot(in: db)
            let now = Date()
            var sourceTopics: [Topic] = []
            var alreadyMerged: [String] = []
            for path in sourcePaths {
                if path == targetPath || targetPath.key.hasPrefix(path.key + "/") {
                    throw MnemoError.invalidInput(
                        field: "sources",
                        reason: "cannot merge \"\(path)\" into itself or its own subtopic \"\(target)\"")
                }
                if let topic = try TopicTable.find(db, namespace: namespace, path: path) {
                    sourceTopics.append(topic)
                } else if try Self.wasMerged(db, namespace: namespace, source: path, into: targetPath) {
                    alreadyMerged.append(path.description)
                } else if let destination = try Self.destination(db, namespace: namespace, ofMerged: path) {
                    throw MnemoError.notFound(.mergedTopic(path.description, into: destination))
                } else {
                    throw MnemoError.notFound(.topic(path.description))
                }
            }
            if sourceTopics.isEmpty, !alreadyMerged.isEmpty,
                let targetTopic = try TopicTable.find(db, namespace: namespace, path: targetPath)
            {
                return TopicMergeReport(
                    target: targetTopic.path, mergedTopics: [], movedFacts: 0, factClusters: [],
                    alreadyMerged: alreadyMerged, dryRun: dryRun)
            }
            let summary = "merged \(sourceTopics.map(\.path).joined(separator: ", ")) into \(targetPath)"
            return try OperationLog.record(db, namespace: namespace, kind: .mergeTopics, summary: summary) {
                // Like `mv`, a missing target (and its ancestors) is created.
                let targetTopic = try TopicTable.ensure(db, namespace: namespace, path: targetPath, at: now)
                var merger = TopicMerger(db: db, namespace: namespace, now: now)
                for source in sourceTopics {
                    try merger.merge(source, into: targetTopic)
                }
                let clusters =
                    try snapshot.map {
                        try Self.mergeNearDuplicates(
                            db, namespace: namespace, store: $0, under: targetTopic, rule: NearDuplicateRule())
                    } ?? []
                return TopicMergeReport(
                    target: targetTopic.path, mergedTopics: merger.mergedTopics,
                    movedFacts: merger.movedFacts, factClusters: clusters,
                    alreadyMerged: alreadyMerged, dryRun: dryRun)
            }
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
    /// Topics whose names differ only in case, accents, punctuation, `&`/`and` or word order
    /// under the same parent merge into the one with the most facts, and the facts that meet
    /// there are deduplicated; then facts are clustered with ``NearDuplicateRule`` (this needs
    /// an ``embedder``) and each cluster folds into its oldest fact. Everything happens in one
    /// transaction; a dry run makes the same changes and rolls them back, so its report is
    /// exactly what the real run reports.
    @discardableResult
    public func dedupe(rule: NearDuplicateRule = NearDuplicateRule(), dryRun: Bool = false) async throws -> DedupeReport
    {
        let topicGroups = try await topicVariantGroups()
        let snapshot = try await vectorIndex == nil ? nil : vectorSnapshot()
        let namespace = namespace
        let dedupe: @Sendable (Database) throws -> DedupeReport = { db in
            let now = Date()
            var topicMergeClusters: [DuplicateCluster] = []
            for group in topicGroups {
                guard let target = try TopicTable.find(db, namespace: namespace, path: TopicPath(group.target)) else {
                    continue
                }
                var merger = TopicMerger(db: db, namespace: namespace, now: now)
                for variant in group.variants {
                    // A variant nested in an earlier group's topic has already been merged with it.
                    guard let source = try TopicTable.find(db, namespace: namespace, path: TopicPath(variant)) else {
                        continue
                    }
                    try merger.merge(source, into: target)
                }
                if let snapshot {
                    topicMergeClusters += try Self.mergeNearDuplicates(
                        db, namespace: namespace, store: snapshot, under: target, rule: rule)
                }
            }
            var clusters: [DuplicateCluster] = []
            if let snapshot, let code = snapshot.namespaceCode(namespace) {
                let facts = try FactTable.list(
                    db, namespace: namespace, filter: FactFilter(activity: .all), limit: Int.max, offset: 0)
                let byID = Dictionary(uniqueKeysWithValues: facts.map { ($0.id, $0) })
                clusters = DuplicateFinder(rule: rule).clusters(in: snapshot, namespaceCode: code, facts: byID).map {
                    ids in
                    DuplicateCluster(survivor: byID[ids[0]]!, duplicates: ids.dropFirst().map { byID[$0]! })
                }
                for cluster in clusters {
                    var survivor = cluster.survivor
                    for duplicate in cluster.duplicates {
                        survivor = try FactMerger.merge(db, absorbed: duplicate, into: survivor, now: now)
                    }
                }
            }
            return DedupeReport(
                factClusters: clusters, topicGroups: topicGroups, topicMergeClusters: topicMergeClusters, dryRun: dryRun
            )
        }
        let work: @Sendable (Database) throws -> DedupeReport = { db in
            var report: DedupeReport?
            return try OperationLog.record(
                db, namespace: namespace, kind: .dedupe,
                summary: """
                    dedupe: \(report?.mergedFacts ?? 0) facts merged, \(report?.topicGroups.count ?? 0) topic groups
                    """
            ) {
                report = try dedupe(db)
                return report!
            }
        }
        if dryRun {
            return try await writer.write { db in
                var report: DedupeReport?
                try db.inSavepoint {
                    report = try work(db)
                    return .rollback
                }
                return report!
            }
        }
        return try await writer.write(work)
    }

    /// Groups of sibling topics whose names are variants of one another.
    func topicVariantGroups() async throws -> [TopicVariantGroup] {
        let tree = try await topicTree()
        var groups: [TopicVariantGroup] = []
        func visit(_ siblings: [TopicNode]) {
            for variants in Dictionary(grouping: siblings, by: { TopicNameVariants.key($0.topic.name) }).values
            where variants.count > 1 {
                let ordered = variants.sorted {
                    ($0.subtreeFactCount, -$0.topic.id) > ($1.subtreeFactCount, -$1.topic.id)
                }
                groups.append(
                    TopicVariantGroup(target: ordered[0].topic.path, variants: ordered.dropFirst().map(\.topic.path)))
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

    /// Whether the history of the topic at `target` records that a topic at `source` was merged
    /// into it (the `merged_from` of a ``HistoryEvent/Kind/topicMerged`` event).
    static func wasMerged(_ db: Database, namespace: String, source: TopicPath, into target: TopicPath) throws -> Bool {
        guard let targetTopic = try TopicTable.find(db, namespace: namespace, path: target) else { return false }
        return try HistoryTable.events(db, namespace: namespace, topicID: targetTopic.id).contains { event in
            guard event.kind == .topicMerged, let from = event.details["merged_from"] else { return false }
            return (try? TopicPath(validating: from))?.key == source.key
        }
    }

    /// Where the topic that was at `source` went, when an earlier merge folded it into another
    /// topic: that topic's path now (after its renames), or the topic it was merged into in
    /// turn; `nil` when no merge took a topic from `source` (or its target was deleted since).
    static func destination(_ db: Database, namespace: String, ofMerged source: TopicPath) throws -> String? {
        let merges = try HistoryTable.topicMerges(db, namespace: namespace)
        let intoSource = merges.first { event in
            event.details["merged_from"].flatMap { try? TopicPath(validating: $0) }?.key == source.key
        }
        guard let targetID = intoSource?.topicID else { return nil }
        if let target = try TopicTable.find(db, id: targetID) { return target.path }
        // The target was itself merged away later: its own event says into what.
        return merges.first { $0.topicID == targetID && $0.details["into"] != nil }?.details["into"]
    }

    /// Merges near-duplicate facts that share the subtree of `root`, within a transaction, and
    /// returns the clusters merged (each survivor as it was before absorbing its duplicates).
    static func mergeNearDuplicates(
        _ db: Database, namespace: String, store: VectorSnapshot, under root: Topic,
        rule: NearDuplicateRule
    ) throws -> [DuplicateCluster] {
        let facts = try FactTable.list(
            db, namespace: namespace, filter: FactFilter(topicPath: TopicPath(root.path), activity: .all),
            limit: Int.max, offset: 0)
        var local = VectorSnapshot(dimension: store.dimension)
        for fact in facts {
            if let vector = store.vector(of: fact.id) {
                local.upsert(
                    id: fact.id, vector: Array(vector),
                    attributes: .init(
                        namespace: namespace, topicID: fact.topicID, type: fact.type, importance: fact.importance,
                        isActive: fact.isActive))
            }
        }
        guard let code = local.namespaceCode(namespace) else { return [] }
        let byID = Dictionary(uniqueKeysWithValues: facts.map { ($0.id, $0) })
        var clusters: [DuplicateCluster] = []
        let now = Date()
        for ids in DuplicateFinder(rule: rule).clusters(in: local, namespaceCode: code, facts: byID) {
            let cluster = DuplicateCluster(survivor: byID[ids[0]]!, duplicates: ids.dropFirst().map { byID[$0]! })
            var survivor = cluster.survivor
            for duplicate in cluster.duplicates {
                survivor = try FactMerger.merge(db, absorbed: duplicate, into: survivor, now: now)
            }
            clusters.append(cluster)
        }
        return clusters
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
