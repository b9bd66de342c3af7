import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

@Suite("Conflicts", .storesClosed)
struct ConflictTests {
    /// Vectors pinned so each pair sits at a chosen cosine similarity.
    static func embedder() -> SeededEmbedder {
        SeededEmbedder(
            dimension: 4,
            pinned: [
                "I prefer hiking to cycling": [1, 0, 0, 0],
                "These days I'd pick cycling over hiking": [0.93, 0.36756, 0, 0], // cosine 0.93
                "Rent is 850 euros a month": [0, 1, 0, 0],
                "Rent is €950 a month": [0, 0.95, 0.31225, 0], // cosine 0.95
                "Tom reports to me": [0, 0, 0, 1],
                "Tom is one of my direct reports": [0, 0, 0.3, 0.95394], // cosine 0.954
            ])
    }

    static func knowledgeBase(path: String? = nil, on backend: Backend = .sqlite) async throws -> KnowledgeBase {
        let kb =
            if let path { try KnowledgeBase(path: path, embedder: embedder()) } else {
                try await backend.empty(embedder: embedder())
            }
        try await kb.addFact(NewFact(content: "I prefer hiking to cycling", topicPath: "Sport", type: .preference))
        try await kb.addFact(NewFact(content: "Rent is 850 euros a month", topicPath: "Home"))
        try await kb.addFact(
            NewFact(content: "These days I'd pick cycling over hiking", topicPath: "Sport", type: .preference))
        try await kb.addFact(NewFact(content: "Rent is €950 a month", topicPath: "Home"))
        return kb
    }

    @Test(arguments: Backend.available) func closeFactsThatDifferAreKeptAndListedNewestFirst(on backend: Backend)
        async throws
    {
        let kb = try await Self.knowledgeBase(on: backend)
        #expect(try await kb.stats().facts == 4)
        let conflicts = try await kb.conflicts()
        #expect(conflicts.map(\.newer.content) == ["Rent is €950 a month", "These days I'd pick cycling over hiking"])
        #expect(conflicts.map(\.older.content) == ["Rent is 850 euros a month", "I prefer hiking to cycling"])
        #expect(conflicts.map(\.reason) == ["different values", "reversed preference"])
        #expect(conflicts[0].older.createdAt <= conflicts[0].newer.createdAt)
        #expect(abs(conflicts[0].similarity - 0.95) < 0.001)
    }

    @Test(arguments: Backend.available) func aTrueDuplicateMergesInsteadOfConflicting(on backend: Backend) async throws
    {
        let kb = try await backend.empty(embedder: Self.embedder())
        try await kb.addFact(NewFact(content: "Tom reports to me", topicPath: "Work"))
        try await kb.addFact(NewFact(content: "Tom is one of my direct reports", topicPath: "Work"))
        #expect(try await kb.stats().facts == 1)
        #expect(try await kb.conflicts().isEmpty)
    }

    @Test(arguments: Backend.available) func searchResultsCarryTheirConflicts(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(on: backend)
        let hits = try await kb.search("rent", mode: .text)
        #expect(hits.count == 2)
        let ids = Dictionary(uniqueKeysWithValues: hits.map { ($0.fact.content, $0.fact.id) })
        for hit in hits {
            let other =
                hit.fact.content == "Rent is €950 a month" ? "Rent is 850 euros a month" : "Rent is €950 a month"
            #expect(hit.conflictsWith == [ids[other]!])
        }
        let hiking = try await kb.search("hiking", mode: .text)
        #expect(hiking.allSatisfy { $0.conflictsWith.count == 1 })
    }

    @Test(arguments: Backend.available) func deactivatingOrDeletingTheStaleFactClearsTheConflict(on backend: Backend)
        async throws
    {
        let kb = try await Self.knowledgeBase(on: backend)
        let conflicts = try await kb.conflicts()
        try await kb.deactivateFact(id: conflicts[0].older.id)
        #expect(try await kb.conflicts().map(\.reason) == ["reversed preference"])
        try await kb.deleteFact(id: conflicts[1].older.id)
        #expect(try await kb.conflicts().isEmpty)
        let cycling = try await kb.search("cycling", mode: .text)
        #expect(cycling.allSatisfy { $0.conflictsWith.isEmpty })
    }

    @Test(arguments: Backend.available) func keepingBothFactsSettlesTheConflictUndoably(on backend: Backend)
        async throws
    {
        let kb = try await Self.knowledgeBase(on: backend)
        let conflicts = try await kb.conflicts()
        if backend == .sqlite { // a store's knowledge base holds one namespace: no other to try
            await #expect(throws: MnemoError.notFound(.conflict(conflicts[0].id))) {
                try await kb.inNamespace("someone-else").dismissConflict(id: conflicts[0].id)
            }
        }
        let before = try await kb.currentCursor()
        try await kb.dismissConflict(id: conflicts[0].id)
        let events = try await kb.changes(after: before, limit: 10).events
        #expect(events.map(\.kind) == [.conflictDismissed])
        #expect(events.first?.factID == conflicts[0].newer.id)
        #expect(events.first?.relatedFactID == conflicts[0].older.id)
        #expect(try await kb.conflicts().map(\.id) == [conflicts[1].id])
        #expect(try await kb.fact(id: conflicts[0].older.id)?.isActive == true)
        #expect(try await kb.fact(id: conflicts[0].newer.id)?.isActive == true)
        let operation = try #require(try await kb.operations().first)
        #expect(operation.kind == .dismissConflict)
        await #expect(throws: MnemoError.notFound(.conflict(conflicts[0].id))) {
            try await kb.dismissConflict(id: conflicts[0].id)
        }
        try await kb.undo(operation.id)
        #expect(try await kb.conflicts().map(\.id) == conflicts.map(\.id))
    }

    @Test func theCommandLineListsConflictsAndSearchShowsThem() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        _ = try await Self.knowledgeBase(path: path)
        let list = try CLIRunner.run(["conflicts", "--json", "--db", path])
        #expect(list.status == 0, "\(list.stderr)")
        let entries = try #require(try list.json() as? [[String: Any]])
        #expect(entries.count == 2)
        #expect((entries[0]["newer"] as? [String: Any])?["content"] as? String == "Rent is €950 a month")
        #expect((entries[0]["older"] as? [String: Any])?["created_at"] != nil)
        #expect(entries[0]["reason"] as? String == "different values")

        let text = try CLIRunner.run(["conflicts", "--db", path])
        #expect(text.stdout.contains("reversed preference"))
        #expect(text.stdout.contains("older #1"))

        let search = try CLIRunner.run(["search", "rent", "--mode", "text", "--json", "--db", path])
        let results = try #require((try search.json() as? [String: Any])?["results"] as? [[String: Any]])
        #expect(results.allSatisfy { ($0["conflicts_with"] as? [Int])?.count == 1 })
    }
}
