import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

/// Searches in every mode while another task or process writes: no error, no "database is
/// locked", and a writer blocked by another process's transaction waits for it.
/// (The long form, 8 readers against 50k facts, is `Scripts/concurrency/load-test.sh`.)
@Suite("Concurrent readers and writers")
struct ConcurrencyTests {
    static func queries(_ round: Int) -> SearchQuery {
        let modes: [SearchMode] = [.text, .semantic, .hybrid]
        var query = SearchQuery(
            ["bees", "fact number 7", "Likes tea", "topic T3"][round % 4], mode: modes[round % 3], limit: 10)
        if round % 5 == 0 {
            query.filter = FactFilter(minimumImportance: .medium, topicPath: try! TopicPath("T\(round % 7)"))
        }
        return query
    }

    static func records(_ range: Range<Int>) -> Data {
        Data(
            range.map {
                #"{"content": "Fact number \#($0) about bees and tea", "topic": "T\#($0 % 9)", "importance": "\#(["high", "medium", "low"][$0 % 3])"}"#
            }
            .joined(separator: "\n").utf8)
    }

    @Test func eightSearchersWhileOneTaskIngests() async throws {
        let kb = try KnowledgeBase(path: TestKnowledgeBase.temporaryPath(), embedder: HashingEmbedder(dimension: 64))
        try await kb.addFact(NewFact(content: "Keeps bees", topicPath: "T1"))
        // MNEMO_LOAD_FACTS=50000 runs the long form (see Scripts/concurrency/load-test.sh).
        let total = ProcessInfo.processInfo.environment["MNEMO_LOAD_FACTS"].flatMap(Int.init) ?? 1_500
        let (searches, errors) = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
            let done = ManagedAtomicFlag()
            group.addTask {
                defer { done.set() }
                let report = try await kb.ingest(data: Self.records(0..<total), options: IngestOptions(batchSize: 250))
                return (0, report.added == total ? [] : ["ingest added \(report.added)"])
            }
            for searcher in 0..<8 {
                group.addTask {
                    var count = 0
                    var errors: [String] = []
                    // Bounded, so that searchers on a slow (debug, loaded) machine cannot starve
                    // the writer of the cores; at least one search overlaps the ingest.
                    while (!done.isSet || count == 0) && count < 40 {
                        do { _ = try await kb.search(Self.queries(searcher + count)) } catch {
                            errors.append("\(error)")
                        }
                        count += 1
                    }
                    return (count, errors)
                }
            }
            var searches = 0
            var errors: [String] = []
            for try await (count, failures) in group {
                searches += count
                errors += failures
            }
            return (searches, errors)
        }
        #expect(errors.isEmpty, "\(errors.prefix(3))")
        #expect(searches > 8)
        let last = "Fact number \(total - 1) about bees and tea"
        #expect(try await kb.search(SearchQuery(last, mode: .semantic, limit: 1)).first?.fact.content == last)
        if ProcessInfo.processInfo.environment["MNEMO_LOAD_FACTS"] != nil {
            print("load: \(total) facts ingested while 8 tasks ran \(searches) searches, \(errors.count) errors")
        }
    }

    @Test func searchingWhileAnotherProcessIngests() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let kb = try KnowledgeBase(path: path, embedder: HashingEmbedder())
        try await kb.addFact(NewFact(content: "Keeps bees", topicPath: "T1"))
        let input = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("in.jsonl")
        try Self.records(0..<1_500).write(to: input)
        let ingest = ThreadJob { try CLIRunner.run(["ingest", input.path, "--db", path, "--batch-size", "200"]) }
        var errors: [String] = []
        var searches = 0
        repeat {
            for round in 0..<6 {
                do { _ = try await kb.search(Self.queries(round + searches)) } catch { errors.append("\(error)") }
            }
            searches += 6
        } while !ingest.isFinished
        let result = try await ingest.value
        #expect(result.status == 0, "\(result.stderr)")
        #expect(errors.isEmpty, "\(errors.prefix(3))")
        let hits = try await kb.search(SearchQuery("Fact number 1499 about bees and tea", mode: .hybrid, limit: 1))
        #expect(hits.first?.fact.content == "Fact number 1499 about bees and tea")
    }

    @Test func aWriterWaitsForAnotherProcesssTransaction() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let kb = try KnowledgeBase(path: path, embedder: SeededEmbedder())
        try await kb.addFact(NewFact(content: "First", topicPath: "A"))
        let other = try DatabaseQueue(path: path)
        // When the other connection took the write lock; it holds it for 1.5 s from then.
        let lockedAt = Locked<Date?>(nil)
        let holding = ThreadJob {
            try other.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                lockedAt.withLock { $0 = Date() }
                Thread.sleep(forTimeInterval: 1.5)
                try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('held', 'yes')")
                try db.execute(sql: "COMMIT")
            }
        }
        // Wait for the lock to be taken (a fixed sleep lost the race on a loaded machine).
        while lockedAt.withLock({ $0 }) == nil { try await Task.sleep(nanoseconds: 10_000_000) }
        let second = try await kb.addFact(NewFact(content: "Second", topicPath: "A"))
        let held = Date().timeIntervalSince(lockedAt.withLock { $0 }!)
        #expect(held > 1.4, "the write finished \(held) s after the other transaction began")
        try await holding.value
        #expect(try await kb.search(SearchQuery("Second", mode: .semantic, limit: 1)).first?.fact.id == second.id)
    }

    /// Searches read on their task's thread; lookups read through GRDB's connection pool. When a
    /// lookup's connection went back to the pool only once its task ran again, 400 of them at
    /// once could hold every connection while the searches held every thread of the
    /// cooperative pool, waiting for one: the process hung (first seen as a `mnemo serve` node
    /// that stopped answering under wrk). A watchdog outside the pool ends the run instead.
    @Test func searchesAndLookupsAtOnceNeverRunOutOfConnections() async throws {
        let kb = try KnowledgeBase(path: TestKnowledgeBase.temporaryPath(), embedder: HashingEmbedder(dimension: 64))
        let ids = try await kb.ingest(data: Self.records(0..<200)).added
        #expect(ids == 200)
        let finished = ManagedAtomicFlag()
        DispatchQueue.global().asyncAfter(deadline: .now() + 120) {
            if !finished.isSet { fatalError("searches and lookups deadlocked: no progress in 120 s") }
        }
        let found = try await withThrowingTaskGroup(of: Int.self) { group in
            for round in 0..<400 {
                group.addTask {
                    if round % 2 == 0 { return try await kb.search(Self.queries(round)).count }
                    return try await kb.fact(id: Int64(round % 200 + 1)) == nil ? 0 : 1
                }
            }
            return try await group.reduce(0, +)
        }
        finished.set()
        #expect(found > 200)
    }
}

/// A flag set once by one task and read by others.
final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
