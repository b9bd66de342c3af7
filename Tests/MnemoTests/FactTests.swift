import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

@Suite("Facts and history", .storesClosed)
struct FactTests {
    @Test(arguments: Backend.available) func addAndGet(on backend: Backend) async throws {
        let kb = try await backend.empty()
        let created = Date(timeIntervalSince1970: 1_736_935_800)
        let fact = try await kb.addFact(
            NewFact(
                content: "  Prefers SwiftUI over UIKit ", topicPath: "Technology/iOS Development",
                type: .preference, importance: .high, confidence: 0.95, sources: ["conv-1"], createdAt: created))
        let stored = try #require(try await kb.fact(id: fact.id))
        #expect(stored.content == "Prefers SwiftUI over UIKit")
        #expect(stored.topicPath == "Technology/iOS Development")
        #expect(stored.type == .preference)
        #expect(stored.importance == .high)
        #expect(stored.confidence == 0.95)
        #expect(stored.sources == ["conv-1"])
        #expect(stored.isActive)
        #expect(stored.mentionCount == 1)
        #expect(stored.createdAt == created)
        #expect(stored.updatedAt == created)
    }

    @Test(arguments: [
        NewFact(content: "   ", topicPath: "A"),
        NewFact(content: "ok", topicPath: "A", confidence: 1.5),
        NewFact(content: "ok", topicPath: "A", confidence: .nan),
        NewFact(content: String(repeating: "x", count: Fact.maximumContentLength + 1), topicPath: "A"),
    ])
    func invalidFactsAreRejected(_ fact: NewFact) async throws {
        let kb = try TestKnowledgeBase.empty()
        await #expect(throws: MnemoError.self) { try await kb.addFact(fact) }
        #expect(try await kb.stats().facts == 0)
        #expect(try await kb.stats().topics == 0)
    }

    @Test(arguments: Backend.available) func exactDuplicatesRaiseTheMentionCount(on backend: Backend) async throws {
        let kb = try await backend.empty()
        let first = try await kb.addFact(NewFact(content: "Lives in Porto.", topicPath: "Home", sources: ["conv-1"]))
            .fact
        let outcome = try await kb.addFact(
            NewFact(content: "lives in  PORTO", topicPath: "Elsewhere", sources: ["conv-2"]))
        #expect(outcome == .unchanged(outcome.fact))
        let second = outcome.fact
        #expect(second.id == first.id)
        #expect(second.mentionCount == 2)
        #expect(second.sources == ["conv-1", "conv-2"])
        #expect(try await kb.stats().facts == 1)
        #expect(try await kb.history(ofFact: first.id).map(\.kind) == [.added, .mentioned])
    }

    @Test(arguments: Backend.available) func updateRecordsEachChange(on backend: Backend) async throws {
        let kb = try await backend.empty()
        let fact = try await kb.addFact(NewFact(content: "Runs 5 km", topicPath: "Sport")).fact
        let updated = try await kb.updateFact(
            id: fact.id,
            FactUpdate(
                content: "Runs 10 km", importance: .high, topicPath: "Health/Running"))
        #expect(updated.content == "Runs 10 km")
        #expect(updated.importance == .high)
        #expect(updated.topicPath == "Health/Running")
        #expect(updated.updatedAt >= fact.updatedAt)
        let events = try await kb.history(ofFact: fact.id)
        #expect(events.map(\.kind) == [.added, .updated])
        #expect(events[1].details["content"] == "Runs 5 km → Runs 10 km")
        #expect(events[1].details["importance"] == "medium → high")
        #expect(try await kb.search("10").map(\.fact.id) == [fact.id])
        #expect(try await kb.search("5").isEmpty)
    }

    @Test(arguments: Backend.available) func updateToAnotherFactsContentIsRefused(on backend: Backend) async throws {
        let kb = try await backend.empty()
        let a = try await kb.addFact(NewFact(content: "Likes tea", topicPath: "Food")).fact
        let b = try await kb.addFact(NewFact(content: "Likes coffee", topicPath: "Food")).fact
        await #expect(throws: MnemoError.conflict(.duplicateFact(existingID: a.id))) {
            try await kb.updateFact(id: b.id, FactUpdate(content: "likes tea."))
        }
        #expect(try await kb.fact(id: b.id)?.content == "Likes coffee")
    }

    @Test(arguments: Backend.available) func deactivateHidesAndReactivateRestores(on backend: Backend) async throws {
        let kb = try await backend.empty()
        let fact = try await kb.addFact(NewFact(content: "Owns a red bicycle", topicPath: "Things")).fact
        try await kb.deactivateFact(id: fact.id)
        #expect(try await kb.search("bicycle").isEmpty)
        #expect(try await kb.facts().isEmpty)
        var query = SearchQuery("bicycle", mode: .text)
        query.filter.activity = .all
        #expect(try await kb.search(query).map(\.fact.id) == [fact.id])
        #expect(try await kb.facts(matching: FactFilter(activity: .inactiveOnly)).map(\.id) == [fact.id])
        try await kb.reactivateFact(id: fact.id)
        #expect(try await kb.search("bicycle").count == 1)
        #expect(try await kb.history(ofFact: fact.id).map(\.kind) == [.added, .deactivated, .reactivated])
    }

    @Test(arguments: Backend.available) func deleteKeepsHistory(on backend: Backend) async throws {
        let kb = try await backend.empty()
        let fact = try await kb.addFact(NewFact(content: "Allergic to walnuts", topicPath: "Health")).fact
        try await kb.deleteFact(id: fact.id)
        #expect(try await kb.fact(id: fact.id) == nil)
        #expect(try await kb.search("walnuts").isEmpty)
        #expect(try await kb.history(ofFact: fact.id).map(\.kind) == [.added, .deleted])
        await #expect(throws: MnemoError.notFound(.fact(fact.id))) { try await kb.deleteFact(id: fact.id) }
    }

    @Test(arguments: Backend.available) func listFiltersAndPages(on backend: Backend) async throws {
        let kb = try await backend.with(
            (1...25).map { index in
                NewFact(
                    content: "Fact number \(index)", topicPath: index.isMultiple(of: 2) ? "Even" : "Odd",
                    type: index.isMultiple(of: 5) ? .goal : .fact,
                    importance: index > 20 ? .high : .low)
            })
        #expect(try await kb.facts(limit: 10).count == 10)
        #expect(try await kb.facts(limit: 10, offset: 20).count == 5)
        let firstPage = try await kb.facts(limit: 10).map(\.id)
        let secondPage = try await kb.facts(limit: 10, offset: 10).map(\.id)
        #expect(Set(firstPage).isDisjoint(with: secondPage))
        #expect(try await kb.facts(matching: FactFilter(types: [.goal])).count == 5)
        #expect(try await kb.facts(matching: FactFilter(minimumImportance: .medium)).count == 5)
        #expect(try await kb.facts(matching: FactFilter(topicPath: "even")).count == 12)
        #expect(try await kb.facts(matching: FactFilter(types: [])).isEmpty)
    }

    @Test(arguments: Backend.available) func statsCountEverything(on backend: Backend) async throws {
        let kb = try await backend.with([
            NewFact(content: "a", topicPath: "X/Y/Z", type: .goal, importance: .high),
            NewFact(content: "b", topicPath: "X", type: .goal, importance: .negligible),
            NewFact(content: "c", topicPath: "X", type: .experience),
        ])
        let c = try #require(try await kb.facts(matching: FactFilter(types: [.experience])).first)
        try await kb.deactivateFact(id: c.id)
        let stats = try await kb.stats()
        #expect(stats.facts == 3)
        #expect(stats.activeFacts == 2)
        #expect(stats.inactiveFacts == 1)
        #expect(stats.topics == 3)
        #expect(stats.maxTopicDepth == 3)
        #expect(stats.byType == [.fact: 0, .preference: 0, .goal: 2, .experience: 1])
        #expect(stats.byImportance == [.high: 1, .medium: 1, .low: 0, .negligible: 1])
        #expect(stats.largestTopics.first == .init(path: "X", facts: 2))
    }
}
