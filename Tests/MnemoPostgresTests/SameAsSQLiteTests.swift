import Foundation
import Mnemo
import MnemoPostgres
import MnemoTestSupport
import Testing

/// The engine on a node's copy is the engine on a file: the same input gives the same report,
/// the same export bytes, the same history and the same rankings in every mode.
@Suite("PostgreSQL answers as SQLite does", .enabled(if: TestStore.isAvailable, TestStore.skipNote))
struct SameAsSQLiteTests {
    static let fixtures = ModelFixture.repositoryRoot.appendingPathComponent("Fixtures/knowledge.jsonl")
    static let now = Date(timeIntervalSince1970: 1_764_000_000)

    static func configuration() -> KnowledgeBase.Configuration {
        KnowledgeBase.Configuration(embedder: SeededEmbedder(dimension: 64), now: { now })
    }

    @Test func fixturesGiveTheSameReportExportHistoryAndRankings() async throws {
        let file = try KnowledgeBase(
            url: URL(fileURLWithPath: try TestKnowledgeBase.temporaryPath()), configuration: Self.configuration())
        let node = try await PostgresMemory.connect(
            try await TestStore.freshDatabase(), configuration: Self.configuration(), options: TestStore.options)
        let shared = try await node.defaultKnowledgeBase()
        let data = try Data(contentsOf: Self.fixtures)
        let fileReport = try await file.ingest(data: data)
        let sharedReport = try await shared.ingest(data: data)
        #expect(fileReport == sharedReport)
        #expect(try await export(file) == export(shared))
        for id in [Int64(1), 5, 100, 343] {
            #expect(try await file.history(ofFact: id) == shared.history(ofFact: id))
        }
        for query in ["marathon training", "what does she drink in the morning", "SwiftUI", "allergy"] {
            for mode in [SearchMode.text, .semantic, .hybrid] {
                let expected = try await file.search(SearchQuery(query, mode: mode, limit: 10))
                let actual = try await shared.search(SearchQuery(query, mode: mode, limit: 10))
                #expect(actual.map(\.fact.id) == expected.map(\.fact.id), "\(mode) \(query)")
                #expect(actual.map(\.score) == expected.map(\.score), "\(mode) \(query)")
            }
        }
        await node.close()
    }

    private func export(_ kb: KnowledgeBase) async throws -> String {
        var lines: [String] = []
        for try await line in kb.exportedLines() { lines.append(line) }
        return lines.joined(separator: "\n")
    }
}
