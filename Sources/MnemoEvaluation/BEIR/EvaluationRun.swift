import Foundation
import Mnemo

/// Indexes a BEIR corpus as facts in a scratch knowledge base, runs the judged queries, and
/// scores the results with ``RetrievalMetrics``.
///
/// Each document becomes one fact whose content is its title and text joined by a space (what
/// BEIR's sentence-transformer models embed), truncated on a word boundary to
/// ``Fact/maximumContentLength`` characters (18 of SciFact's 5,183 abstracts are longer), with
/// the document id as its source. Near duplicates are never merged; two documents with the same
/// normalized content share one fact, which then stands for both ids.
public enum EvaluationRun {
    /// How to run.
    public struct Configuration: Sendable {
        public var mode: SearchMode
        public var fusion: HybridFusion
        /// Documents per call to the embedder and per transaction.
        public var batchSize: Int
        /// Where corpus embeddings are cached between runs; `nil` disables the cache.
        public var cacheDirectory: URL?
        /// Where the scratch database goes; a new temporary folder when `nil`. Either way it is
        /// deleted at the end.
        public var scratchDirectory: URL?
        /// Budgets at which each query's memory context is measured (``ContextRecall``); none by default.
        public var contextBudgets: [Int]
        /// Query id → category name, for per-category context recall.
        public var categories: [String: String]
        /// Whether to collect each query's hits as ``RelevancePair``s (hybrid mode).
        public var relevancePairs: Bool
        /// Opens the knowledge base the corpus is indexed in, when not a scratch file: a namespace
        /// of a PostgreSQL store (`mnemo eval --db postgres://…`), whose figures must equal the file's.
        public var openKnowledgeBase: (@Sendable (KnowledgeBase.Configuration) async throws -> KnowledgeBase)?

        public init(
            mode: SearchMode, fusion: HybridFusion = .standard, batchSize: Int = 64,
            cacheDirectory: URL? = EvaluationRun.defaultCacheDirectory, scratchDirectory: URL? = nil,
            contextBudgets: [Int] = [], categories: [String: String] = [:], relevancePairs: Bool = false
        ) {
            self.mode = mode
            self.fusion = fusion
            self.batchSize = batchSize
            self.cacheDirectory = cacheDirectory
            self.scratchDirectory = scratchDirectory
            self.contextBudgets = contextBudgets
            self.categories = categories
            self.relevancePairs = relevancePairs
        }
    }

    /// Where a run stands, for a progress display.
    public struct Progress: Sendable {
        public enum Phase: String, Sendable {
            case indexing
            case embeddingQueries = "embedding queries"
            case searching
        }

        public var phase: Phase
        public var done: Int
        public var total: Int
    }

    /// What a run measured.
    public struct Report: Sendable {
        public var dataset: String
        public var mode: SearchMode
        public var metrics: RetrievalMetrics
        public var documents: Int
        /// Documents cut to ``Fact/maximumContentLength`` characters.
        public var truncatedDocuments: Int
        /// Texts the embedder had to encode (0 when every vector came from the cache).
        public var encodedTexts: Int
        /// The cache file used, if any.
        public var cacheFile: URL?
        public var indexingTime: Duration
        public var searchTime: Duration
        /// Each judged query's outcome, in the dataset's order.
        public var queries: [QueryOutcome]
        /// Evidence recall of contexts against the ranking packed into the same budget, one per
        /// ``Configuration/contextBudgets``.
        public var contextRecall: [ContextRecall] = []
        /// Time to build one context at the first budget.
        public var contextLatency: LatencyStats?
        /// Time of each query's search (101 results, no weak-hit floor).
        public var searchLatency: LatencyStats?
        /// Every judged query's hits, when ``Configuration/relevancePairs`` asked for them.
        public var relevancePairs: [RelevancePair] = []
    }

    /// `~/.cache/mnemo/eval`, or `$XDG_CACHE_HOME/mnemo/eval`.
    public static var defaultCacheDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return base.appendingPathComponent("mnemo").appendingPathComponent("eval")
    }

    /// The number of results asked for per query: Recall@100 needs 100 after a hit with the
    /// query's own id is dropped.
    static let depth = 101

    /// Runs the evaluation.
    /// - Parameter embedder: required for semantic and hybrid modes; ignored in text mode.
    public static func run(
        _ dataset: BEIRDataset, embedder: (any Embedder)?, configuration: Configuration,
        progress: (@Sendable (Progress) -> Void)? = nil
    ) async throws -> Report {
        let clock = ContinuousClock()
        let documents = dataset.documents.compactMap(PreparedDocument.init)
        let embedding =
            try configuration.mode == .text
            ? nil
            : cachingEmbedder(
                embedder, for: documents, dataset: dataset, directory: configuration.cacheDirectory)

        let scratch =
            configuration.scratchDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-eval-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let databaseURL = scratch.appendingPathComponent("\(dataset.name)-\(UUID().uuidString).sqlite")
        defer {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: databaseURL.path + suffix)
            }
            if configuration.scratchDirectory == nil { try? FileManager.default.removeItem(at: scratch) }
        }
        // Documents dated in their titles (LoCoMo's turns) are stored with that date, and "now" is
        // the day after the last one, so that a context's recent part is the latest sessions.
        let latest = documents.compactMap(\.date).max()
        let kbConfiguration = KnowledgeBase.Configuration(
            embedder: embedding, now: { latest.map { $0.addingTimeInterval(86_400) } ?? Date() })
        let kb =
            try await configuration.openKnowledgeBase?(kbConfiguration)
            ?? KnowledgeBase(url: databaseURL, configuration: kbConfiguration)

        let indexingStart = clock.now
        let topic = try TopicPath("BEIR/\(dataset.name)")
        var indexed = 0
        progress?(Progress(phase: .indexing, done: 0, total: documents.count))
        for batch in stride(from: 0, to: documents.count, by: max(1, configuration.batchSize)) {
            let slice = documents[batch..<min(documents.count, batch + max(1, configuration.batchSize))]
            try await kb.addFacts(
                slice.map { NewFact(content: $0.content, topicPath: topic, sources: [$0.id], createdAt: $0.date) },
                nearDuplicates: nil)
            indexed += slice.count
            progress?(Progress(phase: .indexing, done: indexed, total: documents.count))
        }
        if let embedding {
            // One batch for the queries too, rather than one encoder call per search.
            let texts = dataset.queries.map(\.text)
            for batch in stride(from: 0, to: texts.count, by: max(1, configuration.batchSize)) {
                _ = try await embedding.embed(Array(texts[batch..<min(texts.count, batch + configuration.batchSize)]))
                progress?(
                    Progress(
                        phase: .embeddingQueries, done: min(texts.count, batch + configuration.batchSize),
                        total: texts.count))
            }
            try embedding.cache.save()
        }
        let indexingTime = clock.now - indexingStart

        let searchStart = clock.now
        var results: [String: [ScoredDocument]] = [:]
        var tallies = configuration.contextBudgets.map { ContextRecall.Tally(budget: $0) }
        var contextTimes: [Duration] = []
        var searchTimes: [Duration] = []
        var pairs: [RelevancePair] = []
        for (index, query) in dataset.queries.enumerated() {
            let searchStarted = clock.now
            // Whole rankings, as BEIR scores them: no weak-hit floor.
            let hits = try await kb.search(
                SearchQuery(
                    query.text, mode: configuration.mode, limit: depth,
                    fusion: configuration.fusion, relativeScoreFloor: nil))
            searchTimes.append(clock.now - searchStarted)
            results[query.id] = documentRanking(hits)
            let evidence = Set((dataset.qrels[query.id] ?? [:]).filter { $0.value > 0 }.keys)
            if configuration.relevancePairs, dataset.qrels[query.id] != nil {
                pairs += RelevancePair.pairs(
                    Array(hits.prefix(RelevancePair.hybridDepth)), set: dataset.name, query: query.id,
                    mode: configuration.mode, evidence: evidence)
                for mode in [SearchMode.text, .semantic] where mode != configuration.mode {
                    let single = try await kb.search(
                        SearchQuery(
                            query.text, mode: mode, limit: RelevancePair.singleModeDepth, relativeScoreFloor: nil))
                    pairs += RelevancePair.pairs(
                        single, set: dataset.name, query: query.id, mode: mode, evidence: evidence)
                }
            }
            for budgetIndex in tallies.indices {
                let budget = tallies[budgetIndex].budget
                let start = clock.now
                let context = try await kb.context(for: query.text, budget: budget)
                if budgetIndex == 0 { contextTimes.append(clock.now - start) }
                let packed = MemoryContext.packedInRankOrder(hits.map(\.fact), budget: budget)
                tallies[budgetIndex].add(
                    context: ContextRecall.recall(context.items.map(\.fact), evidence: evidence),
                    topk: ContextRecall.recall(packed, evidence: evidence),
                    category: configuration.categories[query.id])
            }
            progress?(Progress(phase: .searching, done: index + 1, total: dataset.queries.count))
        }
        let searchTime = clock.now - searchStart

        let judged = Set(dataset.queries.map(\.id))
        return Report(
            dataset: dataset.name, mode: configuration.mode,
            metrics: RetrievalMetrics.evaluate(results, qrels: dataset.qrels.filter { judged.contains($0.key) }),
            documents: documents.count, truncatedDocuments: documents.filter(\.isTruncated).count,
            encodedTexts: embedding?.misses ?? 0, cacheFile: embedding?.cache.fileURL,
            indexingTime: indexingTime, searchTime: searchTime,
            queries: QueryOutcome.outcomes(dataset, results: results),
            contextRecall: tallies.map(\.result),
            contextLatency: contextTimes.isEmpty ? nil : LatencyStats(samples: contextTimes),
            searchLatency: LatencyStats(samples: searchTimes), relevancePairs: pairs)
    }

    /// Hits turned into BEIR document ids, best first; a fact that stands for several identical
    /// documents yields each of them with the fact's score.
    static func documentRanking(_ hits: [SearchHit]) -> [ScoredDocument] {
        var seen = Set<String>()
        var ranking: [ScoredDocument] = []
        for hit in hits {
            for id in hit.fact.sources where seen.insert(id).inserted {
                ranking.append(ScoredDocument(id: id, score: hit.score))
            }
        }
        return ranking
    }

    private static func cachingEmbedder(
        _ embedder: (any Embedder)?, for documents: [PreparedDocument], dataset: BEIRDataset, directory: URL?
    ) throws -> CachingEmbedder {
        guard let embedder else {
            throw MnemoError.invalidInput(field: "mode", reason: "semantic and hybrid evaluation need an embedder")
        }
        var key = EmbeddingCache.hash(embedder.identity.description)
        for document in documents { key = EmbeddingCache.hash(document.content + "\u{1F}", into: key) }
        for query in dataset.queries { key = EmbeddingCache.hash(query.text + "\u{1F}", into: key) }
        let model = embedder.identity.name.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
        let file = directory?.appendingPathComponent(
            "\(dataset.name)-\(String(model))-\(embedder.identity.dimension)-\(String(key, radix: 16)).vectors")
        return CachingEmbedder(base: embedder, cache: try EmbeddingCache(identity: embedder.identity, fileURL: file))
    }
}

/// A BEIR document as the content of one fact.
struct PreparedDocument {
    var id: String
    var content: String
    var isTruncated: Bool
    /// The date in the document's title, if any (``DocumentDate``).
    var date: Date?

    /// `nil` for a document with neither title nor text.
    init?(_ document: BEIRDataset.Document) {
        let title = document.title.trimmingCharacters(in: .whitespacesAndNewlines)
        let text = document.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let joined = [title, text].filter { !$0.isEmpty }.joined(separator: " ")
        guard !joined.isEmpty else { return nil }
        id = document.id
        (content, isTruncated) = Self.truncated(joined, to: Fact.maximumContentLength)
        date = DocumentDate.parse(title)
    }

    /// The text cut to at most `limit` characters, at the last whitespace that fits when there is one.
    static func truncated(_ text: String, to limit: Int) -> (String, Bool) {
        guard text.count > limit else { return (text, false) }
        let prefix = text.prefix(limit)
        let cut = prefix.lastIndex(where: \.isWhitespace) ?? prefix.endIndex
        return (String(prefix[..<cut]).trimmingCharacters(in: .whitespacesAndNewlines), true)
    }
}
