import Foundation
import MnemoEvaluation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// The graph index behind ``VectorScan/approximate``, on corpora small enough for the suite: the
/// thresholds that keep it off below 20,000 facts are lowered so the graph answers.
@Suite("Approximate vector index")
struct ApproximateIndexTests {
    static let corpus = SyntheticCorpus(.init(facts: 3_000, queries: 40, dimension: 64, seed: 37))

    /// A knowledge base holding ``corpus`` with its graph built, whose searches always take the
    /// graph (no exact scan of few passing rows) unless `exactScanMaximum` says otherwise.
    static func corpusKnowledgeBase(exactScanMaximum: Int = 0) async throws -> KnowledgeBase {
        let kb = try KnowledgeBase(path: TestKnowledgeBase.temporaryPath(), embedder: corpus.embedder())
        kb.vectorIndex!.approximate.settings.minimumRows = 1_000
        kb.vectorIndex!.approximate.settings.exactScanMaximum = exactScanMaximum
        _ = try await kb.addFacts(corpus.facts, nearDuplicates: nil)
        try await kb.buildVectorGraph()
        #expect(kb.vectorIndex!.approximate.hasGraph(kb.namespace))
        return kb
    }

    static func ids(
        _ kb: KnowledgeBase, _ text: String, _ scan: VectorScan, filter: FactFilter = FactFilter(), limit: Int = 10
    ) async throws -> [Int64] {
        try await kb.search(
            SearchQuery(
                text, mode: .semantic, filter: filter, limit: limit, vectorScan: scan, relativeScoreFloor: nil)
        ).map(\.fact.id)
    }

    static func recall(_ found: [Int64], _ exact: [Int64]) -> Double {
        exact.isEmpty ? 1 : Double(Set(found).intersection(exact).count) / Double(exact.count)
    }

    @Test func recallAt10AgainstTheExactScan() async throws {
        let kb = try await Self.corpusKnowledgeBase()
        var total = 0.0
        for query in Self.corpus.queries {
            let exact = try await Self.ids(kb, query.text, .exact)
            let approximate = try await Self.ids(kb, query.text, .approximate)
            #expect(approximate.count == exact.count)
            total += Self.recall(approximate, exact)
        }
        let recall = total / Double(Self.corpus.queries.count)
        #expect(recall >= 0.95, "recall@10 \(recall)")
        #expect(kb.vectorIndex!.approximate.pathCounts[.graph] == Self.corpus.queries.count)
    }

    /// One filter of each kind. Each is narrowed to a window of statement times when few must pass.
    static func filters(window: (since: Date, until: Date)?) -> [FactFilter] {
        let topic = corpus.facts[0].topicPath
        var filters = [
            FactFilter(types: [.goal]),
            FactFilter(importances: [.negligible, .high]),
            FactFilter(minimumImportance: .high),
            FactFilter(topicPath: try! TopicPath(String(topic.description.split(separator: "/")[0]))),
            FactFilter(activity: .inactiveOnly),
            FactFilter(activity: .all),
            FactFilter(types: [.preference, .experience], minimumImportance: .medium, topicPath: topic),
            FactFilter(),
        ]
        if let window {
            for index in filters.indices {
                filters[index].since = window.since
                filters[index].until = window.until
            }
        }
        return filters
    }

    /// The corpus's facts are stated a minute apart from its first: the window of `count` facts from `first`.
    static func window(first: Int, count: Int) -> (since: Date, until: Date) {
        let start = corpus.facts[0].createdAt!
        return (start.addingTimeInterval(Double(first) * 60), start.addingTimeInterval(Double(first + count) * 60))
    }

    @Test func filtersThatFewFactsPassReturnWhatTheExactScanReturns() async throws {
        let kb = try await Self.corpusKnowledgeBase(exactScanMaximum: 10_000)
        for filter in Self.filters(window: Self.window(first: 1_200, count: 90)) {
            for query in Self.corpus.queries.prefix(10) {
                let exact = try await Self.ids(kb, query.text, .exact, filter: filter)
                let approximate = try await Self.ids(kb, query.text, .approximate, filter: filter)
                #expect(approximate == exact, "\(filter)")
            }
        }
        #expect(kb.vectorIndex!.approximate.pathCounts[.passingRows] == 80)
    }

    @Test func filteredTraversalsKeepRecallAndReturnKResults() async throws {
        let kb = try await Self.corpusKnowledgeBase()
        for filter in Self.filters(window: nil) {
            var total = 0.0
            for query in Self.corpus.queries.prefix(20) {
                let exact = try await Self.ids(kb, query.text, .exact, filter: filter)
                let approximate = try await Self.ids(kb, query.text, .approximate, filter: filter)
                #expect(approximate.count == exact.count, "\(filter)")
                total += Self.recall(approximate, exact)
            }
            #expect(total / 20 >= 0.9, "recall@10 \(total / 20) with \(filter)")
        }
        #expect(kb.vectorIndex!.approximate.pathCounts[.graph, default: 0] > 0)
    }

    /// A filter most nodes fail walks with ``ApproximateIndex/Settings/filteredSearchWidth``
    /// (only passing nodes enter its beam); a filter most nodes pass, with the search width.
    @Test func aSelectiveFilterWalksWithTheFilteredWidth() async throws {
        let kb = try await Self.corpusKnowledgeBase()
        kb.vectorIndex!.approximate.settings.searchWidth = 100
        kb.vectorIndex!.approximate.settings.filteredSearchWidth = 24
        // 300 of the 3,000 facts pass.
        let window = Self.window(first: 1_000, count: 300)
        let selective = FactFilter(activity: .all, since: window.since, until: window.until)
        for query in Self.corpus.queries.prefix(10) {
            let exact = try await Self.ids(kb, query.text, .exact, filter: selective)
            let approximate = try await Self.ids(kb, query.text, .approximate, filter: selective)
            #expect(approximate.count == exact.count)
        }
        #expect(kb.vectorIndex!.approximate.walkWidths == [24: 10])
        for query in Self.corpus.queries.prefix(5) { _ = try await Self.ids(kb, query.text, .approximate) }
        #expect(kb.vectorIndex!.approximate.walkWidths == [24: 10, 100: 5])
    }

    /// The listing tests every row of the namespace and scores the passing rows on the scan's
    /// threads; the walk's cost grows as the share passing falls and as the namespace grows. On
    /// two threads, 1 % and 10 % of a million facts are listed, half of 300,000 walked; on one
    /// thread, or without AVX-512 (rows tested one at a time), 10 % of a million is walked; past
    /// `exactScanMaximum` passing rows the walk is taken whatever the estimates.
    @Test func theListingIsChosenByItsCost() {
        var settings = ApproximateIndex.Settings()
        settings.scoringThreads = 2
        #expect(settings.listsPassingRows(passing: 3_000, of: 300_000, vectorized: true))
        #expect(settings.listsPassingRows(passing: 30_000, of: 300_000, vectorized: true))
        #expect(!settings.listsPassingRows(passing: 150_000, of: 300_000, vectorized: true))
        #expect(settings.listsPassingRows(passing: 10_000, of: 1_000_000, vectorized: true))
        #expect(settings.listsPassingRows(passing: 100_000, of: 1_000_000, vectorized: true))
        #expect(!settings.listsPassingRows(passing: 400_000, of: 10_000_000, vectorized: true))
        #expect(settings.listsPassingRows(passing: 3_000, of: 300_000, vectorized: false))
        #expect(!settings.listsPassingRows(passing: 100_000, of: 1_000_000, vectorized: false))
        var oneThread = settings
        oneThread.scoringThreads = 1
        #expect(!oneThread.listsPassingRows(passing: 100_000, of: 1_000_000, vectorized: true))
        var forced = settings
        forced.forcedFilteredPath = .walk
        #expect(!forced.listsPassingRows(passing: 3_000, of: 300_000, vectorized: true))
    }

    /// The listing kernel (`mnemo_list_passing`) lists exactly the rows ``VectorSnapshot/passes(_:_:)``
    /// accepts, in order, for random columns and filters of every kind: in a namespace that holds
    /// every row (16 rows a step on the AVX-512 path) and in namespaces that share the index
    /// (their rows listed), with every size of list to start from.
    @Test(arguments: KernelInstructionSet.available)
    func passingRowsAreTheRowsThatPass(path: KernelInstructionSet) {
        var random = SplitMix64(seed: 37)
        let start = 1_700_000_000.0
        func snapshot(rows: Int, namespaces: Int) -> VectorSnapshot {
            var store = VectorSnapshot(dimension: 4)
            for id in 0..<rows {
                store.upsert(
                    id: Int64(id + 1), vector: [1, 0, 0, 0],
                    attributes: .init(
                        namespace: "n\(Int.random(in: 0..<namespaces, using: &random))",
                        topicID: Int64.random(in: 0..<12, using: &random),
                        type: FactType.allCases.randomElement(using: &random)!,
                        importance: Importance.allCases.randomElement(using: &random)!,
                        isActive: Bool.random(using: &random),
                        createdAt: Date(
                            timeIntervalSince1970: start + Double(Int.random(in: 0..<1_000, using: &random)))))
            }
            return store
        }
        func randomFilter(namespaceCode: Int32) -> VectorFilter {
            var filter = FactFilter(activity: FactFilter.Activity.allCases.randomElement(using: &random)!)
            if Bool.random(using: &random) {
                filter.types = Set(FactType.allCases.filter { _ in Bool.random(using: &random) })
            }
            if Bool.random(using: &random) {
                filter.importances = Set(Importance.allCases.filter { _ in Bool.random(using: &random) })
            }
            if Bool.random(using: &random) {
                filter.minimumImportance = Importance.allCases.randomElement(using: &random)
            }
            if Bool.random(using: &random) {
                let since = Double(Int.random(in: -10..<1_000, using: &random))
                filter.since = Date(timeIntervalSince1970: start + since)
                filter.until = Date(
                    timeIntervalSince1970: start + since + Double(Int.random(in: 0..<500, using: &random)))
            } else if Bool.random(using: &random) {
                filter.until = Date(timeIntervalSince1970: start + Double(Int.random(in: 0..<1_000, using: &random)))
            }
            let topics: Set<Int64>? =
                Bool.random(using: &random)
                ? Set((0..<12).filter { _ in Int.random(in: 0..<3, using: &random) == 0 }) : nil
            return VectorFilter(filter, namespaceCode: namespaceCode, topicIDs: topics)
        }
        for (rows, namespaces) in [(1_000, 1), (37, 1), (2_003, 3)] {
            let store = snapshot(rows: rows, namespaces: namespaces)
            for _ in 0..<200 {
                let code = Int32.random(in: 0..<Int32(namespaces), using: &random)
                let filter = randomFilter(namespaceCode: code)
                let expected = (store.rows(ofNamespace: code) ?? (0..<Int32(store.count)).map { $0 })
                    .filter { store.passes(Int($0), filter) }
                for estimate in [0, expected.count, rows] {
                    let listed = store.passingRows(filter, expected: estimate, instructionSet: path)
                    #expect(listed == expected, "\(filter) from an estimate of \(estimate)")
                }
            }
        }
    }

    /// Listed rows are scored on several threads once they are many (as the exact scan's are):
    /// the k best are those one thread finds, and those of the int8 scan with the filter.
    @Test func listedRowsScoredOnSeveralThreadsAreTheBestOnOne() {
        var random = SplitMix64(seed: 41)
        let dimension = 32
        var store = VectorSnapshot(dimension: dimension)
        let rowCount = 3 * VectorSnapshot.parallelThreshold
        func unitVector() -> [Float] {
            var vector = (0..<dimension).map { _ in Float.random(in: -1...1, using: &random) }
            VectorMath.normalize(&vector)
            return vector
        }
        for id in 0..<rowCount {
            store.upsert(
                id: Int64(id + 1), vector: unitVector(),
                attributes: .init(
                    namespace: "n", topicID: 1, type: id % 3 == 0 ? .goal : .fact, importance: .medium,
                    isActive: true, createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(id))))
        }
        let filter = VectorFilter(FactFilter(types: [.fact]), namespaceCode: store.namespaceCode("n")!, topicIDs: nil)
        let rows = store.passingRows(filter)
        #expect(rows.count > VectorSnapshot.parallelThreshold)
        for _ in 0..<5 {
            let query = unitVector()
            let one = store.nearest(to: query, k: 10, among: rows, floor: -.infinity, threads: 1)
            let two = store.nearest(to: query, k: 10, among: rows, floor: -.infinity, threads: 2)
            let scan = store.nearest(to: query, k: 10, filter: filter, precision: .quantized(rescoreFactor: 10))
            #expect(one.count == 10)
            #expect(two == one)
            #expect(scan == one)
        }
    }

    /// A filter 12 facts pass gives 10 results, one that 5 pass gives 5, through the graph or the
    /// scan it falls back to.
    @Test(arguments: [12, 5])
    func kResultsWhenKFactsPass(passing: Int) async throws {
        let kb = try await Self.corpusKnowledgeBase()
        let window = Self.window(first: 2_000, count: passing)
        let filter = FactFilter(activity: .all, since: window.since, until: window.until)
        for query in Self.corpus.queries.prefix(10) {
            let exact = try await Self.ids(kb, query.text, .exact, filter: filter)
            let approximate = try await Self.ids(kb, query.text, .approximate, filter: filter)
            #expect(exact.count == min(10, passing))
            #expect(approximate == exact)
        }
    }

    /// Deletes, updates, deactivations, erasures, inserts and another process's commits are in
    /// the next search through the graph.
    @Test func writesAreInTheNextSearch() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let kb = try KnowledgeBase(path: path, embedder: HashingEmbedder(dimension: 64))
        kb.vectorIndex!.approximate.settings.minimumRows = 500
        kb.vectorIndex!.approximate.settings.exactScanMaximum = 0
        let facts = Self.corpus.facts.prefix(1_500).map {
            NewFact(content: $0.content, topicPath: $0.topicPath, type: $0.type, importance: $0.importance)
        }
        _ = try await kb.addFacts(Array(facts), nearDuplicates: nil)
        try await kb.buildVectorGraph()
        let text = Self.corpus.queries[0].text
        func search() async throws -> [SearchHit] {
            let hits = try await kb.search(
                SearchQuery(text, mode: .semantic, limit: 10, relativeScoreFloor: nil))
            let exact = try await Self.ids(kb, text, .exact)
            #expect(Self.recall(hits.map(\.fact.id), exact) >= 0.8)
            return hits
        }
        let before = try await search()
        try await kb.deleteFact(id: before[0].fact.id)
        #expect(try await !search().map(\.fact.id).contains(before[0].fact.id))

        _ = try await kb.updateFact(id: before[5].fact.id, FactUpdate(content: text))
        let updated = try await search()
        #expect(updated.first?.fact.id == before[5].fact.id)
        #expect((updated.first?.similarity ?? 0) > 0.999)

        _ = try await kb.deactivateFact(id: before[5].fact.id)
        #expect(try await !search().map(\.fact.id).contains(before[5].fact.id))

        let added = try await kb.addFacts(
            [NewFact(content: text + " Again.", topicPath: facts[0].topicPath)], nearDuplicates: nil)[0].fact.id
        #expect(try await search().first?.fact.id == added)
        _ = try await kb.eraseFacts(ids: [added])
        #expect(try await !search().map(\.fact.id).contains(added))

        let other = try KnowledgeBase(path: path, embedder: HashingEmbedder(dimension: 64))
        let theirs = try await other.addFacts(
            [NewFact(content: text + " Once more.", topicPath: facts[1].topicPath)], nearDuplicates: nil)[0].fact.id
        #expect(try await search().first?.fact.id == theirs)
        try await other.deleteFact(id: theirs)
        #expect(try await !search().map(\.fact.id).contains(theirs))

        let paths = kb.vectorIndex!.approximate.pathCounts
        #expect(paths[.graph] == 8 && paths[.graphThenScan] == nil, "\(paths)")
    }

    /// Below the minimum the default search is the exact float scan, result for result.
    @Test func smallNamespacesAreScannedExactly() async throws {
        let kb = try KnowledgeBase(path: TestKnowledgeBase.temporaryPath(), embedder: Self.corpus.embedder())
        _ = try await kb.addFacts(Array(Self.corpus.facts.prefix(500)), nearDuplicates: nil)
        for query in Self.corpus.queries.prefix(5) {
            let exact = try await Self.ids(kb, query.text, .exact)
            #expect(try await Self.ids(kb, query.text, .approximate) == exact)
        }
        #expect(kb.vectorIndex!.approximate.pathCounts == [.exactScan: 5])
        #expect(!kb.vectorIndex!.approximate.hasGraph(kb.namespace))
    }

    /// Applying the same state twice leaves the graph as it was; a new vector leaves a tombstone.
    @Test func graphUpdatesAreIdempotent() {
        let graph = NeighborGraph(dimension: 64)
        let attributes = VectorSnapshot.Attributes(
            namespace: "", topicID: 1, type: .fact, importance: .medium, isActive: true)
        for index in 0..<200 {
            graph.upsert(id: Int64(index), vector: Array(Self.corpus.vector(ofFact: index)), attributes: attributes)
        }
        graph.upsert(id: 7, vector: Array(Self.corpus.vector(ofFact: 7)), attributes: attributes)
        #expect(graph.count == 200 && graph.liveCount == 200)
        var inactive = attributes
        inactive.isActive = false
        graph.upsert(id: 7, vector: Array(Self.corpus.vector(ofFact: 7)), attributes: inactive)
        #expect(graph.count == 200 && graph.flags[Int(graph.nodeOfID[7]!)] & 0x80 == 0)
        graph.upsert(id: 7, vector: Array(Self.corpus.vector(ofFact: 8)), attributes: attributes)
        #expect(graph.count == 201 && graph.liveCount == 200)
        graph.remove(id: 7)
        graph.remove(id: 7)
        #expect(graph.count == 201 && graph.liveCount == 199 && graph.nodeOfID[7] == nil)
    }
}
