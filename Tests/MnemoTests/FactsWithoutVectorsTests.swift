import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

/// A knowledge base opened without an embedder on a file whose facts have vectors never leaves a
/// fact without a vector unless the app said so, and the facts it did leave get one later.
@Suite("Facts without vectors")
struct FactsWithoutVectorsTests {
    static let model = SeededEmbedder(name: "model-a")

    /// A file with one embedded fact, written by a knowledge base with ``model``.
    static func embeddedFile() async throws -> String {
        let path = try TestKnowledgeBase.temporaryPath()
        let kb = try KnowledgeBase(path: path, embedder: model)
        try await kb.addFact(NewFact(content: "Reads one science fiction novel a month", topicPath: "Books"))
        return path
    }

    static func historyCount(_ kb: KnowledgeBase) async throws -> Int {
        try await kb.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM history") ?? 0 }
    }

    @Test func withoutAnEmbedderANewFactIsRefusedAndNothingIsStored() async throws {
        let path = try await Self.embeddedFile()
        let kb = try KnowledgeBase(path: path)
        let history = try await Self.historyCount(kb)
        let missing = MnemoError.conflict(.embedderMissing(stored: Self.model.identity))
        await #expect(throws: missing) {
            try await kb.addFact(NewFact(content: "Collects vinyl records", topicPath: "Music"))
        }
        await #expect(throws: missing) {
            try await kb.addFacts([
                NewFact(content: "Reads one science fiction novel a month", topicPath: "Books"),
                NewFact(content: "Collects vinyl records", topicPath: "Music"),
            ])
        }
        await #expect(throws: MnemoError.interrupted(stored: 0, cause: missing)) {
            try await kb.ingest(data: Data(#"{"topic": "Music", "content": "Collects vinyl records"}"#.utf8))
        }
        #expect(try await kb.stats().facts == 1)
        #expect(try await kb.topic(at: "Music") == nil)
        #expect(try await Self.historyCount(kb) == history)
        #expect(missing.description.contains("`acceptsFactsWithoutVectors`"))
        #expect(missing.description.contains("`embedFactsWithoutVectors()`"))
    }

    @Test func withoutAnEmbedderWritesThatNeedNoVectorPass() async throws {
        let path = try await Self.embeddedFile()
        let kb = try KnowledgeBase(path: path)
        let repeated = try await kb.addFact(
            NewFact(content: "Reads one science fiction novel a month", topicPath: "Books"))
        #expect(!repeated.isAdded && repeated.fact.mentionCount == 2)
        let id = repeated.id
        try await kb.updateFact(id: id, FactUpdate(importance: .high, topicPath: "Reading"))
        await #expect(throws: MnemoError.conflict(.embedderMissing(stored: Self.model.identity))) {
            try await kb.updateFact(id: id, FactUpdate(content: "Reads two novels a month"))
        }
        let fact = try #require(try await kb.fact(id: id))
        #expect(fact.content == "Reads one science fiction novel a month" && fact.importance == .high)
        #expect(try await kb.check().isClean)
        try await kb.deleteFact(id: id)
    }

    @Test func aFileNeverEmbeddedTakesFactsWithoutAnEmbedder() async throws {
        let kb = try KnowledgeBase(path: try TestKnowledgeBase.temporaryPath())
        #expect(try await kb.addFact(NewFact(content: "Collects vinyl records", topicPath: "Music")).isAdded)
        try await kb.updateFact(id: 1, FactUpdate(content: "Collects old vinyl records"))
        #expect(try await kb.check().isClean)
    }

    @Test func anAppThatOptsInWritesAndTheModelCatchesUpLater() async throws {
        let path = try await Self.embeddedFile()
        let withoutModel = try KnowledgeBase(
            url: URL(fileURLWithPath: path), configuration: .init(acceptsFactsWithoutVectors: true))
        let added = try await withoutModel.addFact(NewFact(content: "Collects vinyl records", topicPath: "Music"))
        #expect(added.isAdded)
        // A new content loses the vector of the old one, which would find it by a meaning it no longer has.
        try await withoutModel.updateFact(id: 1, FactUpdate(content: "Reads two novels a month"))
        let report = try await withoutModel.check()
        #expect(report.problems.map(\.code) == [.factsWithoutVectors])
        #expect(report.problems.first?.count == 2)

        let withModel = try KnowledgeBase(path: path, embedder: Self.model)
        let semantic = SearchQuery("Reads two novels a month", mode: .semantic, limit: 1, relativeScoreFloor: nil)
        #expect(try await withModel.search(semantic).first?.fact.id != 1)
        #expect(try await withModel.embedFactsWithoutVectors() == 2)
        #expect(try await withModel.check().isClean)
        let hit = try #require(try await withModel.search(semantic).first)
        #expect(hit.fact.id == 1 && abs((hit.similarity ?? 0) - 1) < 1e-5)
        #expect(try await withModel.embedFactsWithoutVectors() == 0)
    }

    @Test func catchingUpNeedsTheModelThatMadeTheVectors() async throws {
        let path = try await Self.embeddedFile()
        let other = SeededEmbedder(name: "model-b")
        let reembedding = try KnowledgeBase(path: path, reembeddingWith: other)
        await #expect(
            throws: MnemoError.conflict(.embedderMismatch(stored: Self.model.identity, given: other.identity))
        ) {
            try await reembedding.embedFactsWithoutVectors()
        }
        await #expect(throws: MnemoError.self) { try await KnowledgeBase(path: path).embedFactsWithoutVectors() }
    }
}
