import Foundation
import Mnemo

/// Loads a ``SyntheticCorpus`` into a scratch knowledge base and times every search mode, with
/// and without filters: the measurements behind `mnemo bench`.
public enum SearchBenchmark {
    /// One timed variant: a mode, a vector scan, with or without the queries' filters.
    public struct Variant: Hashable, Sendable {
        /// The key in `mnemo bench --json`, such as `semantic_int8_filtered`.
        public var name: String
        public var mode: SearchMode
        public var vectorScan: VectorScan
        public var filtered: Bool
        /// When set, the filter is instead a window of statement times that this share of the
        /// facts falls in (at a different place for each query), so that the share passing is known.
        public var passingShare: Double? = nil

        /// Every variant `mnemo bench` runs, in order: today's, then the graph index
        /// (``VectorScan/approximate``) unfiltered and with 1 % and 10 % of the facts passing,
        /// each beside the exact scan under the same filter, which its recall is measured against.
        public static let all: [Variant] =
            [false, true].flatMap { filtered in
                [
                    Variant(name: "text", mode: .text, vectorScan: .exact, filtered: filtered),
                    Variant(name: "semantic", mode: .semantic, vectorScan: .exact, filtered: filtered),
                    Variant(name: "semantic_int8", mode: .semantic, vectorScan: .quantized, filtered: filtered),
                    Variant(name: "hybrid", mode: .hybrid, vectorScan: .exact, filtered: filtered),
                ].map { variant in
                    var variant = variant
                    if filtered { variant.name += "_filtered" }
                    return variant
                }
            } + [Variant(name: "semantic_ann", mode: .semantic, vectorScan: .approximate, filtered: false)]
            + [(1, 0.01), (10, 0.1)].flatMap { percent, share in
                [("semantic", VectorScan.exact), ("semantic_ann", .approximate)].map { prefix, scan in
                    Variant(
                        name: "\(prefix)_filtered_\(percent)pct", mode: .semantic, vectorScan: scan, filtered: true,
                        passingShare: share)
                }
            }

        /// The exact variant an approximate one's recall is measured against.
        public var exactCounterpart: String? {
            guard vectorScan == .approximate else { return nil }
            return name.replacingOccurrences(of: "_ann", with: "")
        }

        /// The filter of the `index`-th query of `corpus`.
        public func filter(for index: Int, in corpus: SyntheticCorpus) -> FactFilter {
            guard filtered else { return FactFilter() }
            guard let passingShare, !corpus.facts.isEmpty else { return corpus.queries[index].filter }
            let width = max(1, Int((passingShare * Double(corpus.facts.count)).rounded()))
            let first = index &* 7_919 % (corpus.facts.count - min(width, corpus.facts.count) + 1)
            let last = min(corpus.facts.count, first + width) - 1
            guard let since = corpus.facts[first].createdAt, let until = corpus.facts[last].createdAt else {
                return corpus.queries[index].filter
            }
            return FactFilter(since: since, until: until.addingTimeInterval(1))
        }
    }

    public struct Configuration: Sendable {
        /// Facts per `addFacts` call (one transaction each).
        public var batchSize: Int
        /// Untimed queries run before each variant, to warm caches.
        public var warmupQueries: Int
        /// The database file; a temporary one, deleted at the end, when `nil`.
        public var databasePath: String?
        public var limit: Int
        /// The variants to time, in order.
        public var variants: [Variant]
        /// When not empty and the graph index was built: the unfiltered approximate search timed
        /// again at each of these beam widths, its recall against the exact `semantic` variant
        /// (which must be among the variants) — ``Report/approximateCurve``.
        public var curveWidths: [Int] = []
        /// When not empty: after the variants, the graph index's recall@10 with these shares of
        /// its nodes made tombstones (see ``Report/tombstoneRecall``).
        public var tombstoneShares: [Double]

        public init(
            batchSize: Int = 5_000, warmupQueries: Int = 10, databasePath: String? = nil, limit: Int = 10,
            variants: [Variant] = Variant.all, curveWidths: [Int] = [], tombstoneShares: [Double] = []
        ) {
            self.curveWidths = curveWidths
            self.tombstoneShares = tombstoneShares
            self.batchSize = batchSize
            self.warmupQueries = warmupQueries
            self.databasePath = databasePath
            self.limit = limit
            self.variants = variants
        }
    }

    public struct Progress: Sendable {
        /// `loading` or the name of the variant being timed.
        public var phase: String
        public var done: Int
        public var total: Int
    }

    public struct Report: Sendable {
        public var facts: Int
        public var dimension: Int
        public var queries: Int
        /// The time to store every fact (text, topic, history, full-text index and vector).
        public var loadTime: Duration
        /// The time the first semantic search took to read every vector into the index.
        public var indexLoadTime: Duration
        /// The time to build the graph index, when an approximate variant ran on a corpus large
        /// enough to have one.
        public var graphBuildTime: Duration?
        /// In a second knowledge base opened on the same file, once its vectors are loaded: the
        /// time to read the saved graph, check it against them and install it; `nil` when no
        /// graph was built, or when the second one rebuilt it instead (which would be a bug).
        public var graphOpenTime: Duration?
        /// The first approximate search of that second knowledge base, right after.
        public var firstQueryAfterGraphOpen: Duration?
        /// The recall@10 of each approximate variant against its exact counterpart, by name.
        public var approximateRecallAt10: [String: Double]
        /// How the approximate variants' searches were answered (graph, exact scan of the rows
        /// passing, …), by variant name then path.
        public var approximatePaths: [String: [String: Int]]
        /// The database file's size after loading.
        public var databaseBytes: Int
        /// Latency per variant, in the configuration's order.
        public var latencies: [(variant: Variant, stats: LatencyStats)]
        /// The mean CPU time (all threads) per query of each variant: unlike latency, it does not
        /// grow when other processes compete for the cores.
        public var cpuPerQuery: [String: Duration]
        /// The share of the exact top 10 that the int8 scan returns, over the unfiltered queries;
        /// `nil` unless both semantic variants ran.
        public var int8RecallAt10: Double?
        /// The same over the filtered queries.
        public var int8RecallAt10Filtered: Double?
        /// The exact semantic top ids of each unfiltered query, to check another implementation against.
        public var exactSemanticRankings: [[Int64]]
        /// The stored id of each of the corpus's facts, in corpus order.
        public var factIDs: [Int64]
        /// The graph index's recall@10 at each of the configuration's `tombstoneShares`, beside
        /// the same graph saved and read back and a graph built afresh.
        package var tombstoneRecall: [KnowledgeBase.TombstoneRecall] = []
        /// The unfiltered approximate search at each of the configuration's `curveWidths`.
        public var approximateCurve: [(width: Int, stats: LatencyStats, recallAt10: Double)] = []
        /// Each approximate variant with a share passing timed again with its path forced: the
        /// passing rows listed and scored (`listing`), and the graph's walk (`walk`), whichever
        /// the cost model chose; how many queries each path answered (a walk whose beam does not
        /// fill still ends in the listing).
        public var filteredPaths:
            [(variant: String, path: String, stats: LatencyStats, recallAt10: Double, paths: [String: Int])] = []
        /// The bytes the vector index held after the variants, for its rows (`Float` vectors,
        /// int8 codes, attributes) and for the graph index.
        public var vectorIndexBytes: (rows: Int, mapped: Int, graph: Int)?
        /// What a one-fact commit after the build adds to the next approximate search (a
        /// tombstone and an insertion in the graph), when a graph was built.
        public var graphInsertCost: LatencyStats?

        public func stats(_ name: String) -> LatencyStats? {
            latencies.first { $0.variant.name == name }?.stats
        }

        /// Facts stored per second.
        public var loadRate: Double { Double(facts) / max(loadTime.seconds, 1e-9) }
    }

    /// Loads `corpus` and times every variant over its queries.
    public static func run(
        _ corpus: SyntheticCorpus, configuration: Configuration = Configuration(),
        progress: (@Sendable (Progress) -> Void)? = nil
    ) async throws -> Report {
        let clock = ContinuousClock()
        let scratch =
            configuration.databasePath == nil
            ? FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-bench-\(UUID().uuidString)") : nil
        if let scratch { try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true) }
        defer { if let scratch { try? FileManager.default.removeItem(at: scratch) } }
        let path = configuration.databasePath ?? scratch!.appendingPathComponent("bench.sqlite").path
        guard !FileManager.default.fileExists(atPath: path) else {
            throw MnemoError.invalidInput(
                field: "path", reason: "\(path) already exists; the benchmark writes a new database")
        }
        // One embedder for both knowledge bases: at a million facts building one takes seconds
        // and holds a copy of every vector.
        let embedder = corpus.embedder()
        let kb = try KnowledgeBase(path: path, embedder: embedder)

        let loadStart = clock.now
        var loaded = 0
        var factIDs: [Int64] = []
        factIDs.reserveCapacity(corpus.facts.count)
        progress?(Progress(phase: "loading", done: 0, total: corpus.facts.count))
        for start in stride(from: 0, to: corpus.facts.count, by: max(1, configuration.batchSize)) {
            let batch = Array(corpus.facts[start..<min(corpus.facts.count, start + max(1, configuration.batchSize))])
            factIDs += try await kb.addFacts(batch, nearDuplicates: nil).map(\.id)
            loaded += batch.count
            progress?(Progress(phase: "loading", done: loaded, total: corpus.facts.count))
        }
        let loadTime = clock.now - loadStart

        let queries = corpus.queries
        let indexStart = clock.now
        // An exact search: an approximate one would start building the graph index in the
        // background, and every variant timed before it is built would share the cores with it.
        if let first = queries.first {
            _ = try await kb.search(SearchQuery(first.text, mode: .semantic, limit: 1, vectorScan: .exact))
        }
        let indexLoadTime = clock.now - indexStart
        var graphBuildTime: Duration?
        if configuration.variants.contains(where: { $0.vectorScan == .approximate }) {
            progress?(Progress(phase: "building the graph index", done: 0, total: 1))
            let start = clock.now
            let built = try await kb.buildVectorGraph { done, total in
                progress?(Progress(phase: "building the graph index", done: done, total: total))
            }
            if built { graphBuildTime = clock.now - start }
        }
        var graphOpenTime: Duration?
        var firstQueryAfterGraphOpen: Duration?
        if graphBuildTime != nil, let first = queries.first {
            progress?(Progress(phase: "reopening the graph index", done: 0, total: 1))
            let reopened = try KnowledgeBase(path: path, embedder: embedder)
            _ = try await reopened.search(SearchQuery(first.text, mode: .semantic, limit: 1, vectorScan: .exact))
            let start = clock.now
            try await reopened.buildVectorGraph()
            let opened = clock.now
            _ = try await reopened.search(
                SearchQuery(first.text, mode: .semantic, limit: configuration.limit, vectorScan: .approximate))
            if reopened.vectorGraphOrigins == (builds: 0, loads: 1) {
                graphOpenTime = opened - start
                firstQueryAfterGraphOpen = clock.now - opened
            }
        }

        var latencies: [(Variant, LatencyStats)] = []
        var cpuPerQuery: [String: Duration] = [:]
        var rankings: [String: [[Int64]]] = [:]
        var approximatePaths: [String: [String: Int]] = [:]
        for variant in configuration.variants {
            let filters = queries.indices.map { variant.filter(for: $0, in: corpus) }
            func search(_ query: (offset: Int, element: SyntheticCorpus.Query)) async throws -> [Int64] {
                try await kb.search(
                    SearchQuery(
                        query.element.text, mode: variant.mode, filter: filters[query.offset],
                        limit: configuration.limit, vectorScan: variant.vectorScan)
                ).map(\.fact.id)
            }
            for query in queries.enumerated().prefix(configuration.warmupQueries) { _ = try await search(query) }
            let pathsBefore = kb.approximateSearchPaths
            var ids: [[Int64]] = []
            ids.reserveCapacity(queries.count)
            var done = 0
            let cpuStart = ProcessCPUTime.now()
            let stats = try await LatencyStats.measure(Array(queries.enumerated())) { query in
                ids.append(try await search(query))
                done += 1
                if done % 50 == 0 || done == queries.count {
                    progress?(Progress(phase: variant.name, done: done, total: queries.count))
                }
            }
            cpuPerQuery[variant.name] = (ProcessCPUTime.now() - cpuStart) / max(1, queries.count)
            latencies.append((variant, stats))
            if variant.vectorScan == .approximate {
                approximatePaths[variant.name] = kb.approximateSearchPaths
                    .map { ($0.key, $0.value - pathsBefore[$0.key, default: 0]) }
                    .reduce(into: [:]) { $0[$1.0] = $1.1 > 0 ? $1.1 : nil }
            }
            rankings[variant.name] = ids
        }
        var approximateCurve: [(width: Int, stats: LatencyStats, recallAt10: Double)] = []
        if graphBuildTime != nil, let exact = rankings["semantic"] {
            let standard = kb.approximateSearchWidth
            defer { kb.approximateSearchWidth = standard }
            for width in configuration.curveWidths {
                kb.approximateSearchWidth = width
                func search(_ query: SyntheticCorpus.Query) async throws -> [Int64] {
                    try await kb.search(
                        SearchQuery(
                            query.text, mode: .semantic, limit: configuration.limit, vectorScan: .approximate)
                    ).map(\.fact.id)
                }
                progress?(Progress(phase: "timing semantic_ann at width \(width)", done: 0, total: 1))
                for query in queries.prefix(configuration.warmupQueries) { _ = try await search(query) }
                var ids: [[Int64]] = []
                let stats = try await LatencyStats.measure(queries) { ids.append(try await search($0)) }
                approximateCurve.append((width, stats, recall(ids, against: exact) ?? 0))
            }
        }
        var filteredPaths:
            [(variant: String, path: String, stats: LatencyStats, recallAt10: Double, paths: [String: Int])] = []
        if graphBuildTime != nil {
            defer { kb.approximateFilteredPath = nil }
            for variant in configuration.variants
            where variant.vectorScan == .approximate && variant.passingShare != nil {
                guard let exact = variant.exactCounterpart.flatMap({ rankings[$0] }) else { continue }
                let filters = queries.indices.map { variant.filter(for: $0, in: corpus) }
                for path in ["listing", "walk"] {
                    kb.approximateFilteredPath = path
                    func search(_ index: Int) async throws -> [Int64] {
                        try await kb.search(
                            SearchQuery(
                                queries[index].text, mode: .semantic, filter: filters[index],
                                limit: configuration.limit, vectorScan: .approximate)
                        ).map(\.fact.id)
                    }
                    progress?(Progress(phase: "timing \(variant.name) by \(path)", done: 0, total: 1))
                    for index in queries.indices.prefix(configuration.warmupQueries) { _ = try await search(index) }
                    let before = kb.approximateSearchPaths
                    var ids: [[Int64]] = []
                    let stats = try await LatencyStats.measure(Array(queries.indices)) {
                        ids.append(try await search($0))
                    }
                    let paths = kb.approximateSearchPaths
                        .map { ($0.key, $0.value - before[$0.key, default: 0]) }
                        .reduce(into: [String: Int]()) { $0[$1.0] = $1.1 > 0 ? $1.1 : nil }
                    filteredPaths.append((variant.name, path, stats, recall(ids, against: exact) ?? 0, paths))
                }
            }
        }
        let vectorIndexBytes = try await kb.vectorIndexResidentBytes()
        var tombstoneRecall: [KnowledgeBase.TombstoneRecall] = []
        if !configuration.tombstoneShares.isEmpty {
            tombstoneRecall = try await kb.graphRecallWithTombstones(
                queries: queries.map(\.vector), shares: configuration.tombstoneShares, k: configuration.limit
            ) { step in progress?(Progress(phase: step, done: 0, total: 1)) }
        }
        var graphInsertCost: LatencyStats?
        if graphBuildTime != nil {
            progress?(Progress(phase: "timing insertions into the graph index", done: 0, total: 1))
            graphInsertCost = try await Self.graphInsertCost(
                kb, corpus: corpus, factIDs: &factIDs, samples: min(queries.count, 200), limit: configuration.limit)
        }
        // In WAL mode recent pages may still sit in the -wal file.
        let size = ["", "-wal"].reduce(0) { total, suffix in
            total
                + ((try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? NSNumber)?.intValue ?? 0)
        }
        var report = Report(
            facts: corpus.facts.count, dimension: corpus.configuration.dimension, queries: queries.count,
            loadTime: loadTime, indexLoadTime: indexLoadTime, graphBuildTime: graphBuildTime,
            graphOpenTime: graphOpenTime, firstQueryAfterGraphOpen: firstQueryAfterGraphOpen,
            approximateRecallAt10: Dictionary(
                uniqueKeysWithValues: configuration.variants.compactMap { variant in
                    variant.exactCounterpart.flatMap { recall(rankings[variant.name], against: rankings[$0]) }
                        .map { (variant.name, $0) }
                }), approximatePaths: approximatePaths, databaseBytes: size, latencies: latencies,
            cpuPerQuery: cpuPerQuery,
            int8RecallAt10: recall(rankings["semantic_int8"], against: rankings["semantic"]),
            int8RecallAt10Filtered: recall(rankings["semantic_int8_filtered"], against: rankings["semantic_filtered"]),
            exactSemanticRankings: rankings["semantic"] ?? [], factIDs: factIDs)
        report.tombstoneRecall = tombstoneRecall
        report.vectorIndexBytes = vectorIndexBytes
        report.approximateCurve = approximateCurve
        report.filteredPaths = filteredPaths
        report.graphInsertCost = graphInsertCost
        return report
    }

    /// What a fact committed after the graph was built costs the next approximate search: one
    /// fact at a time is deleted and stored again (the same content and vector under a new id,
    /// so its node becomes a tombstone and a new node is inserted), then the same search runs
    /// twice. The first applies the commit to the graph before it walks; the second only walks.
    /// Each sample is the first's time less the second's. Runs last: it changes the corpus's ids.
    private static func graphInsertCost(
        _ kb: KnowledgeBase, corpus: SyntheticCorpus, factIDs: inout [Int64], samples: Int, limit: Int
    ) async throws -> LatencyStats? {
        guard samples > 0, !corpus.facts.isEmpty else { return nil }
        var costs: [Duration] = []
        let clock = ContinuousClock()
        for sample in 0..<samples {
            // Spread over the corpus, and a different query each time.
            let index = sample * 7_919 % corpus.facts.count
            let query = SearchQuery(
                corpus.queries[sample % corpus.queries.count].text, mode: .semantic, limit: limit,
                vectorScan: .approximate)
            try await kb.deleteFact(id: factIDs[index])
            factIDs[index] = try await kb.addFacts([corpus.facts[index]], nearDuplicates: nil)[0].id
            let start = clock.now
            _ = try await kb.search(query)
            let applied = clock.now
            _ = try await kb.search(query)
            costs.append(max(.zero, (applied - start) - (clock.now - applied)))
        }
        return LatencyStats(samples: costs)
    }

    /// Builds the graph index of `kb`'s namespace, or reads it from the file saved beside the
    /// database, and returns once it answers searches: for a benchmark that times the
    /// approximate variants without the scan that runs while the graph is built. False when the
    /// namespace is below the size that gets a graph (its approximate search is the exact scan).
    public static func prepareGraphIndex(of kb: KnowledgeBase) async throws -> Bool {
        try await kb.buildVectorGraph()
    }

    /// The mean share of each exact ranking found in the approximate one.
    static func recall(_ approximate: [[Int64]]?, against exact: [[Int64]]?) -> Double? {
        guard let approximate, let exact else { return nil }
        let pairs = zip(approximate, exact).filter { !$0.1.isEmpty }
        guard !pairs.isEmpty else { return 1 }
        return pairs.reduce(0.0) { $0 + Double(Set($1.0).intersection($1.1).count) / Double($1.1.count) }
            / Double(pairs.count)
    }
}
