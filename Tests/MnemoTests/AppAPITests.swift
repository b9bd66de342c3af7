import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

/// The API as an app meets it: opening, observation, errors, validation, cancellation.
@Suite("App API", .storesClosed)
struct AppAPITests {
    @Test(arguments: Backend.available) func observedFactsFollowCommits(on backend: Backend) async throws {
        let kb = try await backend.empty()
        var iterator = kb.observeFacts().makeAsyncIterator()
        #expect(try await iterator.next() == [])
        try await kb.addFact(NewFact(content: "Likes tea", topicPath: "Food"))
        var latest = try await iterator.next() ?? []
        // GRDB may deliver an unchanged value first; wait for the commit's.
        while latest.isEmpty { latest = try await iterator.next() ?? [] }
        #expect(latest.map(\.content) == ["Likes tea"])
    }

    @Test(arguments: Backend.available) func observedStatsFollowCommits(on backend: Backend) async throws {
        let kb = try await backend.empty()
        var iterator = kb.observeStats().makeAsyncIterator()
        #expect(try await iterator.next()?.facts == 0)
        try await kb.addFact(NewFact(content: "Likes tea", topicPath: "Food", importance: .negligible))
        var stats = try await iterator.next()
        while stats?.facts == 0 { stats = try await iterator.next() }
        #expect(stats?.byImportance[.negligible] == 1)
    }

    @Test func anAppsOwnWriterNeedsMnemosPreparation() async throws {
        #expect(throws: MnemoError.self) { try KnowledgeBase(writer: DatabaseQueue()) }
        var configuration = GRDB.Configuration()
        KnowledgeBase.prepare(&configuration)
        let queue = try DatabaseQueue(configuration: configuration)
        let kb = try KnowledgeBase(writer: queue, configuration: .init(namespace: "app"))
        try await kb.addFact(NewFact(content: "Likes tea", topicPath: "Food"))
        #expect(try await kb.search("tea").count == 1)
        #expect(try await queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM fact") } == 1)
    }

    @Test func aURLOpensTheSameFileAsAPath() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        try await KnowledgeBase(url: URL(fileURLWithPath: path), configuration: .init(mmapSize: 0))
            .addFact(NewFact(content: "Likes tea", topicPath: "Food"))
        #expect(try await KnowledgeBase(path: path).stats().facts == 1)
    }

    @Test func storageFailuresCarryNoGRDBType() async throws {
        let folder = try TestKnowledgeBase.temporaryFolder()
        let file = folder.appendingPathComponent("not-a-database.sqlite")
        try Data(repeating: 0x41, count: 8_192).write(to: file)
        do {
            _ = try KnowledgeBase(url: file)
            Issue.record("opened a file that is not a database")
        } catch let MnemoError.databaseUnusable(_, reason) {
            // Refused by reading its header before SQLite touches it, so SQLite never writes to a
            // foreign file; reported without a GRDB type.
            #expect(reason.contains("not an SQLite database"))
        }
    }

    @Test(arguments: Backend.available) func searchWithoutAModeUsesWhatTheKnowledgeBaseCanDo(on backend: Backend)
        async throws
    {
        let kb = try await backend.with([NewFact(content: "Likes green tea", topicPath: "Food")])
        #expect(try await kb.search(SearchQuery("tea")).count == 1) // text: no embedder, no error
        await #expect(throws: MnemoError.self) { try await kb.search(SearchQuery("tea", mode: .semantic)) }
    }

    @Test(arguments: [
        (SearchQuery("tea", offset: -1), "offset"),
        (SearchQuery("tea", limit: -5), "limit"),
        (SearchQuery("tea", offset: Int.max), "offset"),
        (SearchQuery("tea", minSimilarity: 2), "minSimilarity"),
    ])
    func badSearchArgumentsNameTheirField(_ query: SearchQuery, _ field: String) async throws {
        let kb = try await TestKnowledgeBase.with([NewFact(content: "Likes green tea", topicPath: "Food")])
        do {
            _ = try await kb.search(query)
            Issue.record("accepted \(query)")
        } catch let MnemoError.invalidInput(name, _) {
            #expect(name == field)
        }
        await #expect(throws: MnemoError.self) { try await kb.facts(limit: 10, offset: -1) }
    }

    @Test func importanceNegligibleIsNoneOutside() throws {
        #expect(Importance.negligible.rawValue == "none")
        #expect(Importance(parsing: "None") == .negligible)
        let update = FactUpdate(importance: .negligible)
        #expect(update.importance == .negligible) // not Optional.none
        let json = try JSONEncoder().encode([Importance.negligible: 1])
        #expect(String(decoding: json, as: UTF8.self) == #"{"none":1}"#)
    }

    @Test func topicPathsAreLiteralsOrValidatedText() throws {
        let path: TopicPath = "Technology/iOS Development"
        #expect(path.segments == ["Technology", "iOS Development"])
        // Text from a variable is validated; `TopicPath("a//b")` with a literal would be the
        // literal `"a//b" as TopicPath` (SE-0213) and stop the program as an invalid literal.
        let text = "a//b"
        #expect(throws: MnemoError.invalidInput(field: "topicPath", reason: #""a//b": it has an empty segment"#)) {
            try TopicPath(text)
        }
    }

    @Test(arguments: Backend.available) func aCancelledAddFactsStoresNothingAndSaysSo(on backend: Backend) async throws
    {
        let kb = try await backend.empty(embedder: SlowEmbedder())
        let facts = (0..<600).map { NewFact(content: "Fact number \($0)", topicPath: "Load") }
        let task = Task { try await kb.addFacts(facts) }
        try await Task.sleep(nanoseconds: 30_000_000)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await kb.stats().facts == 0)
    }

    @Test(arguments: Backend.available) func aCancelledIngestKeepsCommittedBatchesAndSaysHowMany(on backend: Backend)
        async throws
    {
        let kb = try await backend.empty()
        let (stream, continuation) = AsyncStream<IngestRecord>.makeStream()
        let task = Task { try await kb.ingest(records: stream, options: IngestOptions(batchSize: 10)) }
        for index in 0..<25 { continuation.yield(IngestRecord(content: "Fact \(index)")) }
        // Let the first two batches land, then cancel while the stream is still open.
        while try await kb.stats().facts < 20 { try await Task.sleep(nanoseconds: 5_000_000) }
        task.cancel()
        continuation.yield(IngestRecord(content: "Fact 25"))
        do {
            _ = try await task.value
            Issue.record("a cancelled ingest reported success")
        } catch let MnemoError.interrupted(stored, cause) {
            #expect(cause == .cancelled)
            #expect(stored == 20)
            #expect(try await kb.stats().facts == 20)
        }
        continuation.finish()
    }
}

/// An embedder that takes a while per call, so a test can cancel between calls.
struct SlowEmbedder: Embedder {
    let identity = EmbeddingModelIdentity(name: "test/slow", dimension: 8)
    func embed(_ texts: [String]) async throws -> [[Float]] {
        try await Task.sleep(nanoseconds: 20_000_000)
        return texts.map { _ in [1, 0, 0, 0, 0, 0, 0, 0] }
    }
}
