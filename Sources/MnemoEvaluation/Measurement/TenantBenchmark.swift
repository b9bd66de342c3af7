import Foundation
import Mnemo

/// Times one user's semantic search in a database shared by many users against the same search
/// in a database of that user alone: what a multi-tenant server pays for its other tenants.
///
/// Every tenant holds the same seeded synthetic corpus (vectors precomputed, so no encoder
/// runs); queries go to tenants in a seeded random order. The lone and the shared database are
/// timed in interleaved rounds, so a load change on the machine hits both alike.
public enum TenantBenchmark {
    public struct Configuration: Sendable {
        public var tenants: Int
        public var factsPerTenant: Int
        public var queries: Int
        public var rounds: Int
        public var seed: UInt64

        public init(
            tenants: Int = 1_000, factsPerTenant: Int = 500, queries: Int = 500, rounds: Int = 3, seed: UInt64 = 42
        ) {
            precondition(tenants > 0 && factsPerTenant > 0 && queries > 0 && rounds > 0, "invalid tenant benchmark")
            self.tenants = tenants
            self.factsPerTenant = factsPerTenant
            self.queries = queries
            self.rounds = rounds
            self.seed = seed
        }
    }

    public struct Report: Sendable {
        public var configuration: Configuration
        /// Semantic search in a database holding one tenant's facts.
        public var lone: LatencyStats
        /// Semantic search of one tenant in the database holding every tenant's facts.
        public var shared: LatencyStats
        public var loadTime: Duration

        /// How many times slower the shared database's median search is.
        public var p50Ratio: Double {
            shared.p50 / lone.p50
        }
    }

    public static func run(_ configuration: Configuration, progress: (@Sendable (String) -> Void)? = nil) async throws
        -> Report
    {
        let clock = ContinuousClock()
        let corpus = SyntheticCorpus(
            .init(facts: configuration.factsPerTenant, queries: configuration.queries, seed: configuration.seed))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-tenants-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let lone = try KnowledgeBase(
            path: folder.appendingPathComponent("lone.sqlite").path, namespace: "tenant-0",
            embedder: corpus.embedder())
        try await lone.addFacts(corpus.facts, nearDuplicates: nil)
        let shared = try KnowledgeBase(
            path: folder.appendingPathComponent("shared.sqlite").path, embedder: corpus.embedder())
        let loadStart = clock.now
        for tenant in 0..<configuration.tenants {
            try await shared.inNamespace("tenant-\(tenant)").addFacts(corpus.facts, nearDuplicates: nil)
            if tenant % 50 == 49 { progress?("loading tenants \(tenant + 1)/\(configuration.tenants)") }
        }
        let loadTime = clock.now - loadStart

        var generator = SplitMix64(seed: configuration.seed ^ 0x7E4A_17)
        let tenantOfQuery = corpus.queries.map { _ in Int(generator.next() % UInt64(configuration.tenants)) }
        let tenants = try (0..<configuration.tenants).map { try shared.inNamespace("tenant-\($0)") }
        func search(_ kb: KnowledgeBase, _ query: SyntheticCorpus.Query) async throws {
            _ = try await kb.search(SearchQuery(query.text, mode: .semantic, limit: 10))
        }
        // Warm both: the first search loads the vector index.
        for query in corpus.queries.prefix(10) {
            try await search(lone, query)
            try await search(tenants[0], query)
        }
        var loneSamples: [Duration] = []
        var sharedSamples: [Duration] = []
        for round in 1...configuration.rounds {
            progress?("timing round \(round)/\(configuration.rounds)")
            for (index, query) in corpus.queries.enumerated() {
                let start = clock.now
                try await search(lone, query)
                let middle = clock.now
                try await search(tenants[tenantOfQuery[index]], query)
                let end = clock.now
                loneSamples.append(middle - start)
                sharedSamples.append(end - middle)
            }
        }
        return Report(
            configuration: configuration, lone: LatencyStats(samples: loneSamples),
            shared: LatencyStats(samples: sharedSamples), loadTime: loadTime)
    }
}
