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

    /// A file numbers rows across its namespaces; a store, whose nodes hold each namespace
    /// apart, numbers them the same, so ids, history, undo and the export of every namespace
    /// are equal — here with two nodes writing in turn.
    @Test func namespacesWrittenInTurnGetTheIdsAFileGives() async throws {
        let file = try KnowledgeBase(
            url: URL(fileURLWithPath: try TestKnowledgeBase.temporaryPath()), configuration: Self.configuration())
        let database = try await TestStore.freshDatabase()
        let nodes = [
            try await PostgresMemory.connect(database, configuration: Self.configuration(), options: TestStore.options),
            try await PostgresMemory.connect(database, configuration: Self.configuration(), options: TestStore.options),
        ]
        let namespaces = ["alice", "bob", "carol"]
        func steps(_ kb: (Int, String) async throws -> KnowledgeBase) async throws {
            for round in 0..<4 {
                for (index, namespace) in namespaces.enumerated() {
                    let kb = try await kb(round + index, namespace)
                    let added = try await kb.addFact(
                        NewFact(
                            content: "Fact \(round) of \(namespace)", topicPath: TopicPath("Topic \(round)/\(index)")))
                    if round == 2 { try await kb.deleteFact(id: added.fact.id) }
                    if round == 3, index == 1 { try await kb.undo() }
                }
            }
        }
        try await steps { _, namespace in try file.inNamespace(namespace) }
        try await steps { turn, namespace in try await nodes[turn % 2].knowledgeBase(namespace: namespace) }
        let shared = try await nodes[0].knowledgeBase(namespace: "alice")
        #expect(try await exportFile(shared) == exportFile(file))
        var lines: [String] = []
        for try await line in shared.exportedLines(allNamespaces: true) { lines.append(line + "\n") }
        #expect(try await withoutUIDs(lines.joined()) == exportFile(file))
        for namespace in namespaces {
            let (inFile, onStore) = (
                try file.inNamespace(namespace), try await nodes[1].knowledgeBase(namespace: namespace)
            )
            #expect(try await onStore.topicTree() == inFile.topicTree())
            #expect(try await onStore.operations().map(\.id) == inFile.operations().map(\.id))
            for fact in try await inFile.facts(matching: FactFilter(activity: .all)) {
                #expect(try await onStore.history(ofFact: fact.id) == inFile.history(ofFact: fact.id))
            }
        }
        for node in nodes { await node.close() }
    }

    /// The export of every namespace, as `mnemo export --all-namespaces` writes it.
    private func exportFile(_ kb: KnowledgeBase) async throws -> String {
        let url = URL(fileURLWithPath: try TestKnowledgeBase.temporaryPath())
        defer { try? FileManager.default.removeItem(at: url) }
        try await kb.export(to: url, allNamespaces: true)
        return try withoutUIDs(String(contentsOf: url, encoding: .utf8))
    }

    private func export(_ kb: KnowledgeBase) async throws -> String {
        var lines: [String] = []
        for try await line in kb.exportedLines() { lines.append(line) }
        return try withoutUIDs(lines.joined(separator: "\n"))
    }

    /// An export without its `uid`s, which are random where a fact is first written: every line
    /// must have one, and the rest must be equal.
    private func withoutUIDs(_ export: String) throws -> String {
        let uid = try Regex(#""uid":"[0-9a-f-]{36}","#)
        for line in export.split(separator: "\n") { #expect(line.contains(uid), "\(line)") }
        return export.replacing(uid, with: "")
    }
}
