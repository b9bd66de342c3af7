import Benchmark
import Foundation
import Mnemo
import MnemoEncoder
import MnemoEvaluation

// Search, ingest and dedupe on seeded synthetic knowledge bases (see `SyntheticCorpus`): 384-d
// clustered vectors stored with the facts, so no encoder runs while measuring. Every search
// benchmark runs one query per iteration, cycling through the corpus's queries, so wall-clock
// percentiles are per-query latencies.
//
// A corpus's database is built once and kept in the temporary folder, keyed by size, seed and
// `Fixture.version`: every benchmark runs in its own process, and rebuilding 100k facts for each
// would dominate the run.

let benchmarks: @Sendable () -> Void = {
    let searchMetrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal]

    for size in [10_000, 100_000] {
        let label = size >= 1_000_000 ? "\(size / 1_000_000)M" : "\(size / 1_000)k"
        // The graph index's variants at 100k only: below 20,000 facts an approximate search is the
        // exact scan. Their setup builds the graph (or reads the one saved beside the fixture's
        // database by an earlier process), so they time the graph, not the scan that runs while
        // it is built.
        for variant in SearchBenchmark.Variant.all where variant.vectorScan != .approximate || size >= 100_000 {
            let name = "Search \(variant.name) \(label)"
            Benchmark(
                name, configuration: .init(metrics: searchMetrics, maxDuration: .seconds(5), maxIterations: 2_000)
            ) { benchmark in
                let fixture = try await Fixture.shared(facts: size)
                for _ in benchmark.scaledIterations {
                    let (index, query) = fixture.nextQuery()
                    let hits = try await fixture.kb.search(
                        SearchQuery(
                            query.text, mode: variant.mode, filter: variant.filter(for: index, in: fixture.corpus),
                            vectorScan: variant.vectorScan))
                    blackHole(hits)
                }
            } setup: {
                let fixture = try await Fixture.shared(facts: size)
                if variant.vectorScan == .approximate {
                    _ = try await SearchBenchmark.prepareGraphIndex(of: fixture.kb)
                }
            }
        }
    }

    // Text-only ingest into a growing knowledge base: 1,000 facts (one transaction) an iteration;
    // throughput is in facts per second.
    Benchmark(
        "Ingest addFacts text-only 1k batch",
        configuration: .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(10),
            maxIterations: 50
        )
    ) { benchmark in
        let ingest = try IngestFixture.shared()
        try await ingest.kb.addFacts(ingest.nextBatch(1_000), nearDuplicates: nil)
    }

    // Ingest with near-duplicate and conflict detection (the hashing embedder, so no model
    // runs): 500 diary lines that differ only by a week number, every one close to every other,
    // against 500 varied lines, each batch into a new in-memory knowledge base. Judging a close
    // pair costs the rule's checks, so the numbered lines may cost somewhat more, never
    // quadratically more (35 s against 3 s before the matcher judged only the closest five).
    for (name, lines) in [("numbered", DiaryLines.numbered), ("varied", DiaryLines.varied)] {
        Benchmark(
            "Ingest 500 \(name) diary lines with near-duplicate detection",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(20), maxIterations: 20)
        ) { _ in
            let kb = try KnowledgeBase.inMemory(embedder: HashingEmbedder())
            try await kb.addFacts(lines)
            blackHole(kb)
        }
    }

    // Dedupe (dry run, so every iteration sees the same facts) over 10k and 100k facts with
    // vectors. From 5,000 facts the neighbours come from k-means blocks, not all pairs: at 100k
    // an all-pairs scan would be 5·10⁹ comparisons.
    for size in [10_000, 100_000] {
        Benchmark(
            "Dedupe dry run \(size / 1_000)k",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(60), maxIterations: 5
            )
        ) { _ in
            let fixture = try await Fixture.shared(facts: size)
            blackHole(try await fixture.kb.dedupe(dryRun: true))
        } setup: {
            _ = try await Fixture.shared(facts: size)
        }
    }

    // Encoder throughput on the 320 short facts of Scripts/embedding-bench/facts.txt (the set
    // the PyTorch comparison uses), batch 32, all cores: only when `MNEMO_MODEL` names a model.
    if let folder = ProcessInfo.processInfo.environment[ModelFolder.environmentVariable], !folder.isEmpty,
        ModelFolder.isInstalled(at: URL(fileURLWithPath: folder))
    {
        Benchmark(
            "Encoder 320 facts batch 32",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal, EncoderFixture.sentencesPerSecond], maxDuration: .seconds(20),
                maxIterations: 20
            )
        ) { benchmark in
            let fixture = try EncoderFixture.shared(folder: folder)
            let start = ContinuousClock.now
            blackHole(try await fixture.encoder.embed(fixture.facts))
            let seconds = (ContinuousClock.now - start).seconds
            benchmark.measurement(EncoderFixture.sentencesPerSecond, Int(Double(fixture.facts.count) / seconds))
        }
    }
}

/// The sentence encoder and the facts it encodes, loaded once per process.
final class EncoderFixture: @unchecked Sendable {
    static let sentencesPerSecond = BenchmarkMetric.custom(
        "Sentences / s", polarity: .prefersLarger, useScalingFactor: false)

    let encoder: SentenceEncoder
    let facts: [String]

    private init(folder: String) throws {
        encoder = try SentenceEncoder(modelDirectory: URL(fileURLWithPath: folder), batchSize: 32)
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scripts/embedding-bench/facts.txt")
        facts = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    nonisolated(unsafe) private static var instance: EncoderFixture?
    private static let lock = NSLock()

    static func shared(folder: String) throws -> EncoderFixture {
        try lock.withLock {
            if let instance { return instance }
            let created = try EncoderFixture(folder: folder)
            instance = created
            return created
        }
    }
}

/// A loaded synthetic knowledge base and a cursor over its queries.
final class Fixture: @unchecked Sendable {
    /// Bump when the corpus generator or the schema changes, so old databases are not reused.
    static let version = 2
    static let seed: UInt64 = 42

    let corpus: SyntheticCorpus
    let kb: KnowledgeBase
    private let lock = NSLock()
    private var cursor = 0

    private init(corpus: SyntheticCorpus, kb: KnowledgeBase) {
        self.corpus = corpus
        self.kb = kb
    }

    /// The next query and its index in the corpus.
    func nextQuery() -> (index: Int, query: SyntheticCorpus.Query) {
        lock.withLock {
            defer { cursor = (cursor + 1) % corpus.queries.count }
            return (cursor, corpus.queries[cursor])
        }
    }

    private static let cache = FixtureCache()

    static func shared(facts: Int) async throws -> Fixture {
        try await cache.fixture(facts: facts)
    }

    static func build(facts: Int) async throws -> Fixture {
        let corpus = SyntheticCorpus(.init(facts: facts, queries: 1_000, dimension: 384, seed: seed))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-benchmark-fixtures")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("v\(version)-\(facts)-\(seed).sqlite").path
        let complete = path + ".complete"
        if !FileManager.default.fileExists(atPath: complete) {
            for suffix in ["", "-wal", "-shm", "-graphs"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            let loader = try KnowledgeBase(path: path, embedder: corpus.embedder())
            for start in stride(from: 0, to: corpus.facts.count, by: 5_000) {
                try await loader.addFacts(
                    Array(corpus.facts[start..<min(corpus.facts.count, start + 5_000)]), nearDuplicates: nil)
            }
            // Marks the database complete, so an interrupted build is never reused.
            _ = FileManager.default.createFile(atPath: complete, contents: nil)
        }
        let kb = try KnowledgeBase(path: path, embedder: corpus.embedder())
        // Load the vector index before anything is measured.
        _ = try await kb.search(SearchQuery(corpus.queries[0].text, mode: .semantic, limit: 1))
        return Fixture(corpus: corpus, kb: kb)
    }
}

/// Builds each size's fixture once per process, however many benchmarks ask at once.
actor FixtureCache {
    private var tasks: [Int: Task<Fixture, any Error>] = [:]

    func fixture(facts: Int) async throws -> Fixture {
        if let task = tasks[facts] { return try await task.value }
        let task = Task { try await Fixture.build(facts: facts) }
        tasks[facts] = task
        return try await task.value
    }
}

/// A text-only knowledge base that grows by a batch of new synthetic facts per iteration.
final class IngestFixture: @unchecked Sendable {
    let kb: KnowledgeBase
    private let corpus = SyntheticCorpus(.init(facts: 60_000, queries: 0, dimension: 1, seed: 7))
    private let lock = NSLock()
    private var next = 0

    private init() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-ingest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        kb = try KnowledgeBase(path: folder.appendingPathComponent("ingest.sqlite").path)
    }

    nonisolated(unsafe) private static var instance: IngestFixture?
    private static let instanceLock = NSLock()

    static func shared() throws -> IngestFixture {
        try instanceLock.withLock {
            if let instance { return instance }
            let created = try IngestFixture()
            instance = created
            return created
        }
    }

    /// The next `count` facts, wrapping around (a wrapped fact is an exact duplicate: a mention).
    func nextBatch(_ count: Int) -> [NewFact] {
        lock.withLock {
            let batch = (0..<count).map { corpus.facts[(next + $0) % corpus.facts.count] }
            next += count
            return batch
        }
    }
}

/// Diary lines: 500 that differ only by their week number, and 500 varied ones of the same length.
enum DiaryLines {
    static let numbered: [NewFact] = (1...500).map {
        NewFact(content: "Had a long call with Dev in week \($0)", topicPath: "Diary", type: .experience)
    }

    static let varied: [NewFact] = {
        let people = ["Dev", "Marta", "my sister", "the team", "Rita", "my landlord", "a recruiter", "Tiago"]
        let doings = ["Had a long call with", "Went climbing with", "Cooked dinner for", "Planned a trip with"]
        let subjects = [
            "the garden", "budgets", "a new job", "the marathon", "chess openings", "a film", "the wedding",
            "tax forms", "a broken bike", "sourdough", "the flat", "holidays", "a podcast", "old photos",
            "the car", "a novel", "Swift concurrency", "the dentist", "a concert", "birthday plans",
        ]
        var generator = SplitMix64(seed: 25)
        func pick(_ words: [String]) -> String { words[Int(generator.next() % UInt64(words.count))] }
        return (0..<500).map { _ in
            NewFact(
                content: "\(pick(doings)) \(pick(people)) and talked about \(pick(subjects)) and \(pick(subjects))",
                topicPath: "Diary", type: .experience)
        }
    }()
}
