import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// What a context puts first: the standing facts that bear on the message, not the newest
/// important ones; `nothing_relevant` only when nothing bears on it; ingest's duplicate test.
@Suite("Context bearing")
struct ContextBearingTests {
    static let now = Timestamp.parse("2025-06-10T12:00:00Z")!
    static let message = "what should I cook tonight?"

    /// The allergy is far from the message (cosine 0.3) but close to what the message brings up
    /// (the cooking fact, 0.66); the marathon goal, the newest important fact, is far from both.
    static func embedder() -> SeededEmbedder {
        SeededEmbedder(
            dimension: 8,
            pinned: [
                message: [1, 0, 0, 0, 0, 0, 0, 0],
                "Mostly cooks vegetarian at home": [0.8, 0.6, 0, 0, 0, 0, 0, 0],
                "Allergic to peanuts": [0.3, 0.7, 0.648, 0, 0, 0, 0, 0],
                "Goal: run a marathon in November": [0, 0, 0, 1, 0, 0, 0, 0],
                "Rent is 950 euros a month": [0, 0, 0, 0, 1, 0, 0, 0],
                "what is my favourite opera?": [0, 0, 0, 0, 0, 0, 0, 1],
                "I run 30 km every week": [0, 0, 0, 0, 0, 0.6, 0.8, 0],
                "My weekly running volume is 30 km": [0, 0, 0, 0, 0, 0.98, 0.2, 0],
                "how far do I run?": [0, 0, 0, 0, 0, 0.8, 0.6, 0],
                "which pasta shape should I buy?": [0.4, 0, 0, 0, 0, 0, 0, 0.916_515],
                "who won the 1966 world cup?": [0.25, 0, 0, 0, 0, 0, 0, 0.968_246],
            ])
    }

    /// An in-memory knowledge base holding `facts`, on the test's clock.
    static func knowledgeBase(embedder: SeededEmbedder = embedder(), _ facts: [NewFact]) async throws
        -> KnowledgeBase
    {
        let kb = try KnowledgeBase.inMemory(embedder: embedder, now: { now })
        try await kb.addFacts(facts, nearDuplicates: nil)
        return kb
    }

    static func day(_ text: String) -> Date { Timestamp.parse(text)! }

    static func knowledgeBase() async throws -> KnowledgeBase {
        try await knowledgeBase(
            [
                NewFact(
                    content: "Allergic to peanuts", topicPath: "Health", importance: .high,
                    createdAt: day("2024-01-05T00:00:00Z")),
                NewFact(
                    content: "Mostly cooks vegetarian at home", topicPath: "Food",
                    createdAt: day("2025-03-05T00:00:00Z")),
                NewFact(
                    content: "Goal: run a marathon in November", topicPath: "Sport", type: .goal, importance: .high,
                    createdAt: day("2025-06-01T00:00:00Z")),
                NewFact(
                    content: "Rent is 950 euros a month", topicPath: "Money", createdAt: day("2025-02-01T00:00:00Z")),
            ])
    }

    @Test func standingFactsAreTheImportantOnesThatBearOnTheMessageNotTheNewest() async throws {
        let kb = try await Self.knowledgeBase()
        let context = try await kb.context(for: Self.message, budget: 400, options: ContextOptions(candidates: 1))
        let contents = context.items.map(\.fact.content)
        #expect(contents.first == "Allergic to peanuts")
        #expect(context.items.first?.reason == .always)
        // The marathon goal bears on nothing here: it comes after the fact that answers.
        let goal = try #require(contents.firstIndex(of: "Goal: run a marathon in November"))
        #expect(goal > contents.firstIndex(of: "Mostly cooks vegetarian at home")!)
    }

    @Test func nothingRelevantOnlyWhenNoHitBearsOnTheMessage() async throws {
        let kb = try await Self.knowledgeBase()
        let cooking = try await kb.context(for: Self.message, budget: 400)
        // The cooking fact answers nothing (relevance far below 0.2) but bears on the message.
        let hit = try #require(cooking.items.first { $0.fact.content == "Mostly cooks vegetarian at home" })
        #expect((hit.score ?? 1) < SearchHit.defaultRelevanceThreshold)
        #expect(!cooking.nothingRelevant)
        let opera = try await kb.context(for: "what is my favourite opera?", budget: 400)
        #expect(opera.nothingRelevant)
    }

    /// Below the bearing that brings in standing facts, a weaker cosine still shows that the memory
    /// knows something: saying "nothing relevant" there could make an app leave the memory out.
    @Test func aWeakButRealHitIsEvidenceThatTheMemoryKnowsSomething() async throws {
        let kb = try await Self.knowledgeBase()
        // Cosine 0.32 with the cooking fact: under the bearing (0.35), over the evidence (0.30).
        let pasta = try await kb.context(for: "which pasta shape should I buy?", budget: 400)
        #expect(!pasta.nothingRelevant)
        // Cosine 0.2 with the cooking fact and none with the rest: nothing known.
        let football = try await kb.context(for: "who won the 1966 world cup?", budget: 400)
        #expect(football.nothingRelevant)
        // The evidence is an option of its own.
        let strict = try await kb.context(
            for: "which pasta shape should I buy?", budget: 400, options: ContextOptions(minimumEvidence: 0.35))
        #expect(strict.nothingRelevant)
    }

    @Test func aContextLeavesOutWhatIngestWouldHaveMerged() async throws {
        let kb = try await Self.knowledgeBase()
        // Cosine 0.75: below the merge threshold, but the same value (30 km) proves the identity,
        // so ingest merges them; stored side by side, the context takes one.
        try await kb.addFacts(
            [
                NewFact(content: "I run 30 km every week", topicPath: "Sport"),
                NewFact(content: "My weekly running volume is 30 km", topicPath: "Sport"),
            ], nearDuplicates: nil)
        let context = try await kb.context(for: "how far do I run?", budget: 400)
        let running = context.items.filter { $0.fact.content.contains("30 km") }
        #expect(running.count == 1)
    }

    @Test func aSettledGoalIsNeverAStandingFactAndItsLineSaysWhereItStands() async throws {
        let kb = try await Self.knowledgeBase()
        let goal = try #require(try await kb.facts(matching: FactFilter(types: [.goal])).first)
        _ = try await kb.updateFact(id: goal.id, FactUpdate(status: .completed))
        let context = try await kb.context(for: "Goal: run a marathon in November", budget: 400)
        let item = try #require(context.items.first { $0.fact.id == goal.id })
        #expect(item.reason != .always)
        let completed = String(Timestamp.format(try #require(item.fact.completedAt)).prefix(10))
        #expect(context.text.contains("(goal, completed \(completed))"))
    }

    /// A condition whose wording is far from the message (cosine 0 to it and to its hit) is a
    /// standing fact when it is filed under the topic of a fact the context leads with; an
    /// important fact filed elsewhere, and newer, is not.
    @Test func anImportantFactFiledBesideTheLeadingHitsIsAStandingFact() async throws {
        let message = "plan my training for the spring"
        let embedder = SeededEmbedder(
            dimension: 8,
            pinned: [
                message: [1, 0, 0, 0, 0, 0, 0, 0],
                "Wants a training block without knee pain": [0.9, 0.435_890, 0, 0, 0, 0, 0, 0],
                "Has tendinopathy in the left knee": [0, 0, 1, 0, 0, 0, 0, 0],
                "Goal: pass the JLPT N4 exam": [0, 0, 0, 1, 0, 0, 0, 0],
            ])
        let kb = try await Self.knowledgeBase(
            embedder: embedder,
            [
                NewFact(
                    content: "Has tendinopathy in the left knee", topicPath: "Health/Injuries", importance: .high,
                    createdAt: Self.day("2025-01-26T00:00:00Z")),
                NewFact(
                    content: "Wants a training block without knee pain", topicPath: "Health/Injuries",
                    type: .goal, createdAt: Self.day("2025-03-01T00:00:00Z")),
                NewFact(
                    content: "Goal: pass the JLPT N4 exam", topicPath: "Languages/Japanese", type: .goal,
                    importance: .high, createdAt: Self.day("2025-05-01T00:00:00Z")),
            ])
        let context = try await kb.context(for: message, budget: 400, options: ContextOptions(candidates: 1))
        let contents = context.items.map(\.fact.content)
        #expect(contents.first == "Has tendinopathy in the left knee")
        #expect(context.items.first?.reason == .always)
        let exam = try #require(contents.firstIndex(of: "Goal: pass the JLPT N4 exam"))
        #expect(exam > contents.firstIndex(of: "Wants a training block without knee pain")!)
    }

    static func hit(_ id: Int64, topic: String, type: FactType = .fact) -> SearchHit {
        let date = Self.now
        let fact = Fact(
            id: id, uid: "00000000-0000-4000-8000-00000000000\(id)", namespace: "default", topicID: 1,
            topicPath: topic, content: "fact \(id)", type: type, importance: .medium, confidence: 1, isActive: true,
            sources: [], mentionCount: 1, createdAt: date, updatedAt: date)
        return SearchHit(fact: fact, score: 1 / Double(id), textScore: nil, similarity: nil, snippet: nil)
    }

    /// A hit filed under the topic of one of the first three hits counts three times as much: at
    /// rank 6 it comes before an unrelated hit at rank 4.
    @Test func aHitBesideTheBestHitsComesBeforeAnUnrelatedOneRankedAboveIt() {
        let hits = [
            Self.hit(1, topic: "Travel/Plans"), Self.hit(2, topic: "Travel/Plans"), Self.hit(3, topic: "Money"),
            Self.hit(4, topic: "Family"), Self.hit(5, topic: "Work"), Self.hit(6, topic: "Travel/Plans"),
        ]
        let order = KnowledgeBase.inContextOrder(hits) { _ in 1 }.map(\.fact.id)
        #expect(order == [1, 2, 3, 6, 4, 5])
    }

    /// What happened counts 0.4 of what holds: an experience at rank 4 comes after a fact at
    /// rank 5 of the same topic and importance.
    @Test func anExperienceCountsLessThanWhatHolds() {
        let hits = [
            Self.hit(1, topic: "A"), Self.hit(2, topic: "B"), Self.hit(3, topic: "C"),
            Self.hit(4, topic: "D", type: .experience), Self.hit(5, topic: "D"),
        ]
        let order = KnowledgeBase.inContextOrder(hits) { _ in 1 }.map(\.fact.id)
        #expect(order == [1, 2, 3, 5, 4])
    }

    @Test func everyDoorChecksTheBudgetWithOneMessage() async throws {
        let kb = try await Self.knowledgeBase()
        let message = "budget takes a whole number of tokens from 0 to 200000, not 200001"
        await #expect(throws: MnemoError.invalidInput(field: "budget", reason: message)) {
            try await kb.context(for: Self.message, budget: 200_001)
        }
        #expect(throws: FilterValueError(field: "budget", code: "invalid_parameter", message: message)) {
            try ContextBudget.checked(200_001)
        }
        #expect(throws: FilterValueError.self) { try ContextBudget.parse("lots") }
        #expect(try ContextBudget.parse(" 300 ") == 300)
    }
}
