import Foundation
import Mnemo

/// A judgement set for memory contexts: everyday messages to an assistant over one memory, each
/// with the facts an assistant must see to answer it (`Fixtures/context/*-messages.json`).
///
/// The file is `{"origin": "…", "memory": "path/to/memory.jsonl", "messages": [{"message": "…",
/// "must": ["fact content", …]}]}`; `memory` is relative to the file and is read by ingest as
/// it is (near duplicates merged), so each `must` string has to be a fact that survives: the
/// one a merge keeps. A message with no `must` facts is one the memory knows nothing about:
/// its context should say ``MemoryContext/nothingRelevant``.
public struct ContextJudgements: Sendable, Decodable {
    public struct Message: Sendable, Decodable {
        public var message: String
        public var must: [String]
    }

    public var origin: String?
    public var memory: String
    public var messages: [Message]

    /// The set's name: its file name without extension.
    public var name = ""
    /// The memory's file, resolved against the set's folder.
    public var memoryURL = URL(fileURLWithPath: "/")

    enum CodingKeys: String, CodingKey { case origin, memory, messages }

    /// Reads the set at `url`.
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` when the file is not a judgement set.
    public init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        do {
            self = try JSONDecoder().decode(Self.self, from: data)
        } catch {
            throw MnemoError.invalidInput(field: "messages", reason: "\(url.path) is not a judgement set: \(error)")
        }
        name = url.deletingPathExtension().lastPathComponent
        memoryURL = URL(fileURLWithPath: memory, relativeTo: url.deletingLastPathComponent()).standardizedFileURL
    }

    /// What a run measured.
    public struct Report: Sendable {
        public var name: String
        public var facts: Int
        /// Messages with must-have facts.
        public var judged: Int
        /// Per budget: the mean share of each judged message's must-have facts in its context and
        /// in the hybrid ranking packed into the same budget.
        public var recall: [ContextRecall]
        /// Messages whose context said ``MemoryContext/nothingRelevant`` correctly (true for a
        /// message without must-have facts, false for the others), at the first budget.
        public var nothingRelevantCorrect: Int
        /// Messages whose ``MemoryContext/nothingRelevant`` was wrong, with what it said.
        public var nothingRelevantWrong: [String]
        /// Per budget, per judged message: the must-have facts its context left out.
        public var missed: [Int: [String: [String]]]
        public var contextLatency: LatencyStats
        public var searchLatency: LatencyStats
    }

    /// Ingests the memory into a scratch knowledge base (its clock the day after the latest fact,
    /// so that "recent" and "due soon" mean what they meant when the set was written) and
    /// measures every message at every budget.
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` when a must-have fact is not in the
    ///   memory after ingest.
    public func run(embedder: (any Embedder)?, budgets: [Int], options: ContextOptions = ContextOptions())
        async throws -> Report
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-judge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("memory.sqlite")
        let loader = try KnowledgeBase(url: file, configuration: .init(embedder: embedder))
        _ = try await loader.ingest(contentsOf: memoryURL)
        let stored = try await loader.facts(limit: 100_000)
        let latest = stored.map(\.createdAt).max() ?? Date()
        let kb = try KnowledgeBase(
            url: file, configuration: .init(embedder: embedder, now: { latest.addingTimeInterval(86_400) }))

        var idOfContent: [String: Int64] = [:]
        for fact in stored { idOfContent[fact.content] = fact.id }
        var tallies = budgets.map { ContextRecall.Tally(budget: $0) }
        var missed: [Int: [String: [String]]] = [:]
        var correct = 0
        var wrong: [String] = []
        var contextTimes: [Duration] = []
        var searchTimes: [Duration] = []
        let clock = ContinuousClock()
        for message in messages {
            let must = try Set(
                message.must.map { content in
                    guard let id = idOfContent[content] else {
                        throw MnemoError.invalidInput(
                            field: "must",
                            reason: "\"\(content)\" (for \"\(message.message)\") is not a fact of \(memory)")
                    }
                    return id
                })
            let searchStart = clock.now
            let hits = try await kb.search(SearchQuery(message.message, limit: 101, relativeScoreFloor: nil))
            searchTimes.append(clock.now - searchStart)
            for index in tallies.indices {
                let budget = tallies[index].budget
                let start = clock.now
                let context = try await kb.context(for: message.message, budget: budget, options: options)
                if index == 0 {
                    contextTimes.append(clock.now - start)
                    if context.nothingRelevant == must.isEmpty {
                        correct += 1
                    } else {
                        wrong.append("\(message.message) (nothing_relevant: \(context.nothingRelevant))")
                    }
                }
                guard !must.isEmpty else { continue }
                let inContext = Set(context.items.map(\.fact.id))
                let packed = Set(
                    MemoryContext.packedInRankOrder(hits.map(\.fact), budget: budget, estimator: options.estimator)
                        .map(\.id))
                tallies[index].add(
                    context: Double(must.intersection(inContext).count) / Double(must.count),
                    topk: Double(must.intersection(packed).count) / Double(must.count), category: nil)
                let left = message.must.filter { !inContext.contains(idOfContent[$0]!) }
                if !left.isEmpty { missed[budget, default: [:]][message.message] = left }
            }
        }
        return Report(
            name: name, facts: stored.count, judged: messages.filter { !$0.must.isEmpty }.count,
            recall: tallies.map(\.result), nothingRelevantCorrect: correct, nothingRelevantWrong: wrong,
            missed: missed, contextLatency: LatencyStats(samples: contextTimes),
            searchLatency: LatencyStats(samples: searchTimes))
    }
}
