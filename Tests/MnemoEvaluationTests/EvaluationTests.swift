import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo
@testable import MnemoEvaluation

@Suite("Retrieval metrics, BEIR loading, evaluation runs, synthetic corpora")
struct EvaluationTests {
    // MARK: Metrics, checked against values computed by hand.

    @Test func gradedNDCGUsesTheGradeAsGain() {
        let judgements = ["d1": 2, "d2": 1, "d3": 0]
        // DCG = 0/log2(2) + 2/log2(3) + 0/log2(4) + 1/log2(5); IDCG = 2/log2(2) + 1/log2(3).
        let dcg = 2 / log2(3.0) + 1 / log2(5.0)
        let ideal = 2 + 1 / log2(3.0)
        let ndcg = RetrievalMetrics.ndcg(["d3", "d1", "x", "d2"], judgements: judgements, k: 10)
        #expect(abs(ndcg - dcg / ideal) < 1e-12)
        #expect(abs(ndcg - 0.643322) < 1e-6)
        // Cut at 2: only d1 counts; the ideal keeps its best two grades.
        #expect(
            abs(RetrievalMetrics.ndcg(["d3", "d1", "x", "d2"], judgements: judgements, k: 2) - (2 / log2(3.0)) / ideal)
                < 1e-12)
        #expect(RetrievalMetrics.ndcg(["d1", "d2"], judgements: judgements, k: 10) == 1)
    }

    @Test func recallAndReciprocalRank() {
        let judgements = ["a": 1, "b": 1, "c": 1, "n": 0]
        let ranking = ["n", "x", "b", "a"]
        #expect(RetrievalMetrics.recall(ranking, judgements: judgements, k: 10) == 2.0 / 3)
        #expect(RetrievalMetrics.recall(ranking, judgements: judgements, k: 3) == 1.0 / 3)
        #expect(RetrievalMetrics.reciprocalRank(ranking, judgements: judgements, k: 10) == 1.0 / 3)
        #expect(RetrievalMetrics.reciprocalRank(ranking, judgements: judgements, k: 2) == 0)
    }

    @Test func aHitWithTheQueryIDIsIgnored() {
        let results = ["q1": [ScoredDocument(id: "q1", score: 9), ScoredDocument(id: "d1", score: 5)]]
        let metrics = RetrievalMetrics.evaluate(results, qrels: ["q1": ["d1": 1]])
        #expect(metrics.queries == 1)
        #expect(metrics.ndcgAt10 == 1)
        #expect(metrics.mrrAt10 == 1)
        #expect(metrics.recallAt10 == 1)
    }

    @Test func fewerThanKHitsAndQueriesWithoutResultsOrRelevantDocuments() {
        let qrels = ["q1": ["a": 1, "b": 1], "q2": ["c": 1], "q3": ["d": 0]]
        let results = [
            "q1": [ScoredDocument(id: "a", score: 3)], // one of two relevant documents, one hit in all
            "q3": [ScoredDocument(id: "d", score: 1)], // nothing relevant to find
        ] // q2 retrieved nothing
        let metrics = RetrievalMetrics.evaluate(results, qrels: qrels)
        #expect(metrics.queries == 3)
        #expect(abs(metrics.recallAt10 - 0.5 / 3) < 1e-12)
        #expect(abs(metrics.recallAt100 - 0.5 / 3) < 1e-12)
        #expect(abs(metrics.mrrAt10 - 1.0 / 3) < 1e-12)
        // q1: DCG 1, IDCG 1 + 1/log2(3).
        #expect(abs(metrics.ndcgAt10 - (1 / (1 + 1 / log2(3.0))) / 3) < 1e-12)
        #expect(RetrievalMetrics.ndcg(["d"], judgements: ["d": 0], k: 10) == 0)
        #expect(RetrievalMetrics.recall(["d"], judgements: ["d": 0], k: 10) == 0)
    }

    @Test func tiesAreBrokenAsTrecEvalAndBEIRBreakThem() {
        // trec_eval (nDCG, recall) orders equal scores by decreasing document id; BEIR's MRR keeps
        // the retrieval order.
        let results = ["q": [ScoredDocument(id: "a", score: 1), ScoredDocument(id: "b", score: 1)]]
        let metrics = RetrievalMetrics.evaluate(results, qrels: ["q": ["a": 1]])
        #expect(abs(metrics.ndcgAt10 - 1 / log2(3.0)) < 1e-12)
        #expect(metrics.mrrAt10 == 1)
    }

    // MARK: BEIR folders.

    static func writeDataset(_ files: [String: String]) throws -> URL {
        let folder = try TestKnowledgeBase.temporaryFolder().appendingPathComponent("tiny")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("qrels"), withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return folder
    }

    @Test func loadsCorpusQueriesAndQrels() throws {
        let folder = try Self.writeDataset([
            "corpus.jsonl": """
            {"_id": "d1", "title": "Tea", "text": "Green tea is brewed cool.", "metadata": {}}
            {"_id": 2, "text": "A numeric id and no title."}

            {"_id": "d3", "title": "", "text": "Third."}
            """,
            "queries.jsonl": """
            {"_id": "q1", "text": "green tea", "metadata": {}}
            {"_id": "q2", "text": "unjudged"}
            {"_id": "q3", "text": "third"}
            """,
            "qrels/test.tsv": "query-id\tcorpus-id\tscore\nq1\td1\t2\nq3\td3\t1\nq3\t2\t0\n",
        ])
        let dataset = try BEIRDataset(contentsOf: folder)
        #expect(dataset.name == "tiny")
        #expect(dataset.documents.map(\.id) == ["d1", "2", "d3"])
        #expect(dataset.documents[0].title == "Tea")
        #expect(dataset.documents[1].title == "")
        #expect(dataset.queries.map(\.id) == ["q1", "q3"])
        #expect(dataset.qrels == ["q1": ["d1": 2], "q3": ["d3": 1, "2": 0]])
    }

    @Test func aBadLineIsReportedWithItsNumber() throws {
        let folder = try Self.writeDataset([
            "corpus.jsonl": "{\"_id\": \"d1\", \"text\": \"ok\"}\n{\"text\": \"no id\"}\n",
            "queries.jsonl": "{\"_id\": \"q1\", \"text\": \"ok\"}\n",
            "qrels/test.tsv": "query-id\tcorpus-id\tscore\nq1\td1\t1\n",
        ])
        #expect(throws: EvaluationError.invalidDataset("corpus.jsonl line 2: not a record with an \"_id\"")) {
            try BEIRDataset(contentsOf: folder)
        }
    }

    // MARK: Evaluation runs.

    /// Four documents on distinct subjects, one longer than a fact may be, one that repeats
    /// another, and one whose id is a query's id.
    static func tinyCollection() throws -> BEIRDataset {
        let long = Array(repeating: "filler", count: 800).joined(separator: " ") // 6,399 characters
        return try BEIRDataset(
            contentsOf: writeDataset([
                "corpus.jsonl": """
                {"_id": "tea", "title": "Tea", "text": "Green tea is brewed with water below boiling."}
                {"_id": "bikes", "title": "Bicycles", "text": "A bicycle chain needs oil every few hundred kilometres."}
                {"_id": "tea-copy", "title": "Tea", "text": "Green tea is brewed with water below boiling."}
                {"_id": "q-chain", "title": "", "text": "bicycle chain oil"}
                {"_id": "long", "title": "Volcanoes", "text": "Basalt lava flows. \(long)"}
                """,
                "queries.jsonl": """
                {"_id": "q-tea", "text": "how hot should water be for green tea"}
                {"_id": "q-chain", "text": "bicycle chain oil"}
                {"_id": "q-lava", "text": "basalt lava"}
                """,
                "qrels/test.tsv":
                    "query-id\tcorpus-id\tscore\nq-tea\ttea\t1\nq-tea\ttea-copy\t1\nq-chain\tbikes\t1\nq-lava\tlong\t1\n",
            ]))
    }

    @Test func textEvaluationEndToEnd() async throws {
        let report = try await EvaluationRun.run(
            Self.tinyCollection(), embedder: nil,
            configuration: .init(mode: .text, batchSize: 2, cacheDirectory: nil))
        #expect(report.documents == 5)
        #expect(report.truncatedDocuments == 1)
        #expect(report.encodedTexts == 0)
        // The document "q-chain" matches its query best but is the query itself: ignored.
        #expect(report.metrics.queries == 3)
        #expect(report.metrics.ndcgAt10 == 1)
        #expect(report.metrics.mrrAt10 == 1)
        #expect(report.metrics.recallAt100 == 1)
    }

    @Test func documentsAreTruncatedOnAWordBoundary() {
        let (text, cut) = PreparedDocument.truncated("alpha beta gamma", to: 12)
        #expect(cut)
        #expect(text == "alpha beta")
        #expect(PreparedDocument.truncated("alpha", to: 12) == ("alpha", false))
    }

    @Test func semanticRunsReadTheCacheTheSecondTime() async throws {
        let cache = try TestKnowledgeBase.temporaryFolder()
        let dataset = try Self.tinyCollection()
        let configuration = EvaluationRun.Configuration(mode: .hybrid, cacheDirectory: cache)
        let first = try await EvaluationRun.run(dataset, embedder: SeededEmbedder(), configuration: configuration)
        #expect(first.encodedTexts == 5 + 3 - 1) // the query "bicycle chain oil" is also a document's text
        #expect(first.cacheFile.map { FileManager.default.fileExists(atPath: $0.path) } == true)
        let second = try await EvaluationRun.run(dataset, embedder: SeededEmbedder(), configuration: configuration)
        #expect(second.encodedTexts == 0)
        #expect(second.metrics == first.metrics)
        // Words still match in hybrid mode, whatever the vectors.
        #expect(second.metrics.recallAt100 == 1)
    }

    @Test func theEmbeddingCacheRoundTripsAndRejectsAnotherDimension() throws {
        let file = try TestKnowledgeBase.temporaryFolder().appendingPathComponent("cache.vectors")
        let identity = EmbeddingModelIdentity(name: "test", dimension: 3)
        let cache = try EmbeddingCache(identity: identity, fileURL: file)
        cache.store([0.6, 0.8, 0], for: "a")
        cache.store([0, 0, 1], for: "b")
        try cache.save()
        let reloaded = try EmbeddingCache(identity: identity, fileURL: file)
        #expect(reloaded.count == 2)
        #expect(reloaded.vector(for: "a") == [0.6, 0.8, 0])
        #expect(reloaded.vector(for: "c") == nil)
        #expect(throws: EvaluationError.self) {
            try EmbeddingCache(identity: EmbeddingModelIdentity(name: "test", dimension: 4), fileURL: file)
        }
    }

    // MARK: Synthetic corpora and measurement.

    @Test func theSameSeedGivesTheSameCorpus() {
        let configuration = SyntheticCorpus.Configuration(facts: 300, queries: 20, dimension: 16, seed: 7)
        let a = SyntheticCorpus(configuration)
        let b = SyntheticCorpus(configuration)
        #expect(a.facts == b.facts)
        #expect(a.vectors == b.vectors)
        #expect(a.queries.map(\.text) == b.queries.map(\.text))
        #expect(a.queries.map(\.vector) == b.queries.map(\.vector))
        #expect(a.queries.map(\.filter) == b.queries.map(\.filter))
        var other = configuration
        other.seed = 8
        #expect(SyntheticCorpus(other).facts != a.facts)
    }

    @Test func aSyntheticCorpusLooksLikeAMemory() {
        let corpus = SyntheticCorpus(.init(facts: 2_000, queries: 50, dimension: 32, seed: 1))
        #expect(corpus.facts.count == 2_000)
        #expect(Set(corpus.facts.map(\.content)).count == 2_000)
        #expect(Set(corpus.facts.map(\.type)) == Set(FactType.allCases))
        #expect(Set(corpus.facts.map(\.importance)) == Set(Importance.allCases))
        #expect(corpus.facts.contains { !$0.isActive })
        #expect((25...60).contains(corpus.topics.paths.count))
        #expect(corpus.topics.paths.map { $0.split(separator: "/").count }.max() == 3)
        for index in [0, 999, 1_999] {
            let norm = corpus.vector(ofFact: index).reduce(0) { $0 + $1 * $1 }
            #expect(abs(norm - 1) < 1e-4)
        }
        // Mostly 1 to 3 words; a repeated text gets one more word, so every text is unique.
        #expect(corpus.queries.filter { (1...3).contains($0.text.split(separator: " ").count) }.count >= 45)
        #expect(Set(corpus.queries.map(\.text)).count == corpus.queries.count)
        // Zipf: the most frequent word is in far more facts than a mid-rank one.
        let top = corpus.vocabulary[0]
        let middle = corpus.vocabulary[1_000]
        let words = corpus.facts.map { Set($0.content.lowercased().split { !$0.isLetter }) }
        #expect(
            words.filter { $0.contains(Substring(top)) }.count > 20
                * max(1, words.filter { $0.contains(Substring(middle)) }.count))
    }

    @Test func theBenchmarkEmbedderAnswersFromItsTable() async throws {
        let corpus = SyntheticCorpus(.init(facts: 10, queries: 3, dimension: 8, seed: 3))
        let embedder = corpus.embedder()
        let vectors = try await embedder.embed([corpus.facts[4].content, corpus.queries[1].text])
        #expect(vectors[0] == Array(corpus.vector(ofFact: 4)))
        #expect(vectors[1] == corpus.queries[1].vector)
        await #expect(throws: MnemoError.self) { try await embedder.embed(["never seen"]) }
    }

    @Test func aSmallBenchmarkRunsEveryVariant() async throws {
        let corpus = SyntheticCorpus(.init(facts: 500, queries: 12, dimension: 16, seed: 5))
        let report = try await SearchBenchmark.run(corpus, configuration: .init(batchSize: 200, warmupQueries: 2))
        #expect(report.facts == 500)
        #expect(report.factIDs.count == 500)
        #expect(report.latencies.map(\.variant.name) == SearchBenchmark.Variant.all.map(\.name))
        #expect(report.latencies.allSatisfy { $0.stats.count == 12 })
        #expect((report.int8RecallAt10 ?? 0) > 0.9)
        #expect(report.exactSemanticRankings.count == 12)
    }

    /// At the size that gets a graph index: the recall–width curve, the tombstone sweep, the
    /// resident bytes and the cost of a commit to the next search are measured.
    @Test func aBenchmarkWithAGraphIndexMeasuresItsCurveAndTombstones() async throws {
        let corpus = SyntheticCorpus(.init(facts: 20_000, queries: 12, dimension: 16, seed: 5))
        let variants = SearchBenchmark.Variant.all.filter { ["semantic", "semantic_ann"].contains($0.name) }
        let report = try await SearchBenchmark.run(
            corpus,
            configuration: .init(
                warmupQueries: 2, variants: variants, curveWidths: [16, 64], tombstoneShares: [0.2]))
        #expect(report.graphBuildTime != nil)
        #expect(report.approximateCurve.map(\.width) == [16, 64])
        #expect(report.approximateCurve.allSatisfy { $0.stats.count == 12 && (0...1).contains($0.recallAt10) })
        #expect((report.approximateCurve.last?.recallAt10 ?? 0) > 0.8)
        #expect(report.tombstoneRecall.count == 1)
        #expect(abs((report.tombstoneRecall.first?.share ?? 0) - 0.2) < 0.001)
        #expect((report.tombstoneRecall.first?.rebuiltRecall ?? 0) > 0.8)
        #expect((report.vectorIndexBytes?.graph ?? 0) > 20_000 * 16)
        // One commit per query, each a fact deleted and stored again under a new id.
        #expect(report.graphInsertCost?.count == 12)
        #expect(Set(report.factIDs).count == 20_000)
        #expect(report.factIDs.filter { $0 > 20_000 }.count == 12)
    }

    @Test func latencyPercentilesUseTheNearestRank() {
        let samples = (1...100).map { Duration.milliseconds($0) }.reversed()
        let stats = LatencyStats(samples: Array(samples))
        #expect(stats.count == 100)
        #expect(stats.p50 == .milliseconds(50))
        #expect(stats.p95 == .milliseconds(95))
        #expect(stats.p99 == .milliseconds(99))
        #expect(stats.minimum == .milliseconds(1))
        #expect(stats.maximum == .milliseconds(100))
        #expect(stats.mean == .microseconds(50_500))
        let one = LatencyStats(samples: [.milliseconds(3)])
        #expect(one.p50 == .milliseconds(3) && one.p99 == .milliseconds(3))
        #expect(LatencyStats(samples: []).p50 == .zero)
        #expect(Duration.microseconds(1_500).milliseconds == 1.5)
    }

    @Test func zipfProbabilitiesFallWithRank() {
        let zipf = ZipfDistribution(count: 1_000, exponent: 1)
        #expect(abs(zipf.probability(of: 0) / zipf.probability(of: 9) - 10) < 1e-9)
        var generator = SplitMix64(seed: 11)
        let draws = (0..<10_000).map { _ in zipf.sample(using: &generator) }
        #expect(draws.allSatisfy { (0..<1_000).contains($0) })
        #expect(draws.filter { $0 == 0 }.count > draws.filter { $0 == 9 }.count * 5)
    }

    @Test func memoryBandwidthIsMeasured() {
        let measurement = MemoryBandwidth.measure(bytes: 8 << 20, threads: 2, passes: 2)
        #expect(measurement.bytes == 8 << 20)
        #expect(measurement.gigabytesPerSecond > 0.1)
        #expect(measurement.checksum > 0)
    }

    // MARK: The int8 kernel the quantized scan runs.

    @Test(arguments: [1, 15, 16, 37, 64, 100, 384, 385])
    func int8DotProductIsExact(count: Int) {
        var generator = SplitMix64(seed: UInt64(count))
        var query = (0..<count).map { _ in Float(generator.below(2001)) / 1000 - 1 }
        if count > 1 {
            query[0] = -1
            query[1] = 1
        } // the extreme codes, -31 and 31
        let queryCodes = codes(of: query, levels: QuantizedQuery.levels)
        var row = (0..<count).map { _ in Int8(generator.below(255) - 127) }
        if count > 3 {
            row[0] = 127
            row[1] = -127
            row[2] = -127
        } // extremes in one 16-bit lane pair
        let extremes = [Int8](repeating: -127, count: count)
        let kernelDots = QuantizedQuery(query).withKernel { kernel in
            [row, extremes].map { codes in codes.withUnsafeBufferPointer { kernel.dot($0.baseAddress!) } }
        }
        #expect(kernelDots[0] == zip(row, queryCodes).reduce(Int32(0)) { $0 + Int32($1.0) * Int32($1.1) })
        #expect(kernelDots[1] == queryCodes.reduce(Int32(0)) { $0 - 127 * Int32($1) })
    }

    @Test(arguments: [16, 32, 48, 384, 385])
    func int8DotProductHoldsAtTheExtremes(count: Int) {
        for (queryValue, code) in [(Float(1), Int8(127)), (-1, 127), (1, -127), (-1, -127)] {
            let query = [Float](repeating: queryValue, count: count)
            let row = [Int8](repeating: code, count: count)
            let dot = QuantizedQuery(query).withKernel { kernel in
                row.withUnsafeBufferPointer { kernel.dot($0.baseAddress!) }
            }
            #expect(dot == Int32(count) * Int32(code) * (queryValue > 0 ? 31 : -31))
        }
    }

    @Test func queryCodesUseTheirWholeRange() {
        let codes = codes(of: [0.5, -0.25, 0, 0.125], levels: 31)
        #expect(codes == [31, -16, 0, 8])
    }

    private func codes(of vector: [Float], levels: Float) -> [Int8] {
        var codes = [Int8](repeating: 0, count: vector.count)
        _ = vector.withUnsafeBufferPointer { source in
            codes.withUnsafeMutableBufferPointer { VectorMath.quantize(source, into: $0, levels: levels) }
        }
        return codes
    }
}
