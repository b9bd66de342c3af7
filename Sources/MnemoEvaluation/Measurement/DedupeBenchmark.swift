import Foundation
import Mnemo

/// Times ``KnowledgeBase/dedupe(rule:dryRun:)`` on a seeded synthetic knowledge base with
/// planted near-duplicate pairs, and counts how many of the pairs it finds.
///
/// Each planted pair is a corpus fact and a copy of it with one word added and its vector moved
/// to cosine 0.92 of the original: a near duplicate that every check of the rule passes. The
/// dedupe is a dry run, so it can be repeated on the same data.
public enum DedupeBenchmark {
    public struct Report: Sendable, Codable {
        public var facts: Int
        public var plantedPairs: Int
        /// Planted pairs that ended up in one cluster.
        public var foundPairs: Int
        /// Facts the dedupe would merge, planted or not.
        public var mergedFacts: Int
        public var loadSeconds: Double
        public var dedupeSeconds: Double
    }

    /// - Parameters:
    ///   - facts: corpus facts, before the planted copies are added.
    ///   - plantedPairs: how many facts get a near-duplicate copy.
    public static func run(facts: Int, plantedPairs: Int, seed: UInt64 = 42, dimension: Int = 384) async throws
        -> Report
    {
        let corpus = SyntheticCorpus(.init(facts: facts, queries: 0, dimension: dimension, seed: seed))
        var newFacts = corpus.facts
        var texts = corpus.facts.map(\.content)
        var vectors = corpus.vectors
        var random = SplitMix64(seed: seed &+ 0x9E37)
        let originals = (0..<min(plantedPairs, facts)).map { $0 * facts / max(1, min(plantedPairs, facts)) }
        for original in originals {
            var copy = corpus.facts[original]
            copy.content += " again"
            var noise = (0..<dimension).map { _ in Float(random.gaussian()) }
            let noiseNorm = noise.reduce(0) { $0 + $1 * $1 }.squareRoot()
            noise = noise.map { $0 / noiseNorm * 0.426 } // cosine 1/√(1 + 0.426²) ≈ 0.92
            var vector = (0..<dimension).map { corpus.vectors[original * dimension + $0] + noise[$0] }
            let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
            vector = vector.map { $0 / norm }
            newFacts.append(copy)
            texts.append(copy.content)
            vectors += vector
        }
        let embedder = PrecomputedEmbedder(
            identity: EmbeddingModelIdentity(name: "mnemo/synthetic-clusters", dimension: dimension), texts: texts,
            vectors: vectors)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mnemo-dedupe-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let kb = try KnowledgeBase(path: folder.appendingPathComponent("bench.sqlite").path, embedder: embedder)

        let clock = ContinuousClock()
        let loadStart = clock.now
        var ids: [Int64] = []
        for start in stride(from: 0, to: newFacts.count, by: 5_000) {
            ids += try await kb.addFacts(
                Array(newFacts[start..<min(newFacts.count, start + 5_000)]), nearDuplicates: nil
            ).map(\.id)
        }
        let loadTime = clock.now - loadStart

        let dedupeStart = clock.now
        let report = try await kb.dedupe(dryRun: true)
        let dedupeTime = clock.now - dedupeStart

        var cluster: [Int64: Int] = [:]
        for (index, found) in report.factClusters.enumerated() {
            for id in [found.survivor.id] + found.duplicates.map(\.id) { cluster[id] = index }
        }
        let found = originals.enumerated().filter { planted, original in
            guard let a = cluster[ids[original]] else { return false }
            return cluster[ids[facts + planted]] == a
        }.count
        return Report(
            facts: newFacts.count, plantedPairs: originals.count, foundPairs: found, mergedFacts: report.mergedFacts,
            loadSeconds: loadTime.seconds, dedupeSeconds: dedupeTime.seconds)
    }
}
