import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// A fact id, topic path or operation id that does not exist gets the same answer from every
/// call: `nil` from the two lookups, `MnemoError.notFound` from every other call that names it.
@Suite("Unknown ids and paths", .storesClosed)
struct UnknownIDTests {
    static let unknown: Int64 = 999_999

    static func knowledgeBase(on backend: Backend = .sqlite) async throws -> KnowledgeBase {
        try await backend.with([NewFact(content: "Likes green tea", topicPath: "Food/Drinks")])
    }

    /// Every call that takes a fact id, with the given id.
    static func factCalls(_ kb: KnowledgeBase, _ id: Int64) -> [(String, () async throws -> Void)] {
        [
            ("updateFact", { _ = try await kb.updateFact(id: id, FactUpdate(importance: .high)) }),
            ("updateFact content", { _ = try await kb.updateFact(id: id, FactUpdate(content: "Likes black tea")) }),
            ("deactivateFact", { _ = try await kb.deactivateFact(id: id) }),
            ("reactivateFact", { _ = try await kb.reactivateFact(id: id) }),
            ("deleteFact", { try await kb.deleteFact(id: id) }),
            ("history(ofFact:)", { _ = try await kb.history(ofFact: id) }),
        ]
    }

    @Test(arguments: Backend.available) func everyCallTakingAFactIdThrowsNotFoundForAnUnknownOne(on backend: Backend)
        async throws
    {
        let kb = try await Self.knowledgeBase(on: backend)
        #expect(try await kb.fact(id: Self.unknown) == nil)
        for (name, call) in Self.factCalls(kb, Self.unknown) {
            await #expect(throws: MnemoError.notFound(.fact(Self.unknown)), "\(name)") { try await call() }
        }
    }

    @Test func anotherNamespacesFactIsUnknownToEveryCall() async throws {
        let kb = try await Self.knowledgeBase()
        let id = try #require(try await kb.facts().first?.id)
        let other = try kb.inNamespace("someone-else")
        #expect(try await other.fact(id: id) == nil)
        for (name, call) in Self.factCalls(other, id) {
            await #expect(throws: MnemoError.notFound(.fact(id)), "\(name)") { try await call() }
        }
        #expect(try await kb.fact(id: id) != nil)
    }

    @Test(arguments: Backend.available) func aDeletedFactKeepsItsHistoryButIsGoneForEveryOtherCall(on backend: Backend)
        async throws
    {
        let kb = try await Self.knowledgeBase(on: backend)
        let id = try #require(try await kb.facts().first?.id)
        try await kb.deleteFact(id: id)
        #expect(try await kb.history(ofFact: id).map(\.kind) == [.added, .deleted])
        #expect(try await kb.fact(id: id) == nil)
        for (name, call) in Self.factCalls(kb, id) where name != "history(ofFact:)" {
            await #expect(throws: MnemoError.notFound(.fact(id)), "\(name)") { try await call() }
        }
    }

    @Test(arguments: Backend.available) func everyCallTakingATopicPathThrowsNotFoundForAnUnknownOne(on backend: Backend)
        async throws
    {
        let kb = try await Self.knowledgeBase(on: backend)
        let missing = MnemoError.notFound(.topic("Nowhere"))
        #expect(try await kb.topic(at: "Nowhere") == nil)
        await #expect(throws: missing) { try await kb.children(of: "Nowhere") }
        await #expect(throws: missing) { try await kb.subtree(of: "Nowhere") }
        await #expect(throws: missing) { try await kb.history(ofTopic: "Nowhere") }
        await #expect(throws: missing) { try await kb.renameTopic("Nowhere", to: "Somewhere") }
        await #expect(throws: missing) { try await kb.moveTopic("Nowhere", under: "Food") }
        await #expect(throws: missing) { try await kb.deleteTopic("Nowhere") }
        await #expect(throws: missing) { try await kb.mergeTopics(["Nowhere"], into: "Food") }
    }

    @Test(arguments: Backend.available) func aFilterOnAnUnknownTopicMatchesNothing(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(on: backend)
        #expect(try await kb.facts(matching: FactFilter(topicPath: "Nowhere")).isEmpty)
        #expect(try await kb.search(SearchQuery("tea", filter: FactFilter(topicPath: "Nowhere"))).isEmpty)
    }

    @Test(arguments: Backend.available) func undoOfAnUnknownOperationThrowsNotFound(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(on: backend)
        await #expect(throws: MnemoError.notFound(.operation(Self.unknown))) { try await kb.undo(Self.unknown) }
        await #expect(throws: MnemoError.notFound(.undoableOperation)) { try await kb.undo() }
    }

    @Test(arguments: Backend.available) func pagesOfConflictsAreCheckedAsPagesOfFactsAre(on backend: Backend)
        async throws
    {
        let kb = try await Self.knowledgeBase(on: backend)
        await #expect(throws: MnemoError.invalidInput(field: "limit", reason: "-1 is negative")) {
            try await kb.conflicts(limit: -1)
        }
        await #expect(throws: MnemoError.invalidInput(field: "offset", reason: "-1 is negative")) {
            try await kb.conflicts(offset: -1)
        }
    }
}
