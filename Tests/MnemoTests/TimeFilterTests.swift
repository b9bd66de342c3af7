import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

@Suite("Time filters", .storesClosed)
struct TimeFilterTests {
    static let may1 = Timestamp.parse("2025-05-01T00:00:00Z")!

    /// Three facts about running, stated one second before May, at its first instant, and on 1 June.
    static func knowledgeBase(on backend: Backend = .sqlite) async throws -> KnowledgeBase {
        let kb = try await backend.empty(
            embedder: SeededEmbedder(), now: { Timestamp.parse("2025-06-10T12:00:00Z")! })
        try await kb.addFacts([
            NewFact(content: "Ran a trail race in April", topicPath: "Running", createdAt: may1.addingTimeInterval(-1)),
            NewFact(content: "Ran ten kilometres on May day", topicPath: "Running", createdAt: may1),
            NewFact(
                content: "Ran a half marathon in June", topicPath: "Running", createdAt: Timestamp.parse("2025-06-01")!),
        ])
        return kb
    }

    static func contents(_ kb: KnowledgeBase, mode: SearchMode, since: Date? = nil, until: Date? = nil) async throws
        -> Set<String>
    {
        let hits = try await kb.search(
            SearchQuery(
                "ran", mode: mode, filter: FactFilter(since: since, until: until),
                relativeScoreFloor: nil))
        return Set(hits.map(\.fact.content))
    }

    @Test(arguments: SearchMode.allCases)
    func sinceIsInclusiveAndUntilExclusiveInEveryMode(mode: SearchMode) async throws {
        let kb = try await Self.knowledgeBase()
        #expect(try await Self.contents(kb, mode: mode).count == 3)
        #expect(
            try await Self.contents(kb, mode: mode, since: Self.may1)
                == ["Ran ten kilometres on May day", "Ran a half marathon in June"])
        #expect(try await Self.contents(kb, mode: mode, until: Self.may1) == ["Ran a trail race in April"])
        #expect(
            try await Self.contents(kb, mode: mode, since: Self.may1, until: Self.may1.addingTimeInterval(0.001))
                == ["Ran ten kilometres on May day"])
        #expect(try await Self.contents(kb, mode: mode, since: Self.may1, until: Self.may1).isEmpty)
    }

    @Test(arguments: Backend.available) func listingsApplyTheRangeToo(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(on: backend)
        let june = try await kb.facts(
            matching: FactFilter(since: TimeBound("2025-06")!.resolved(as: .since, now: kb.now)))
        #expect(june.map(\.content) == ["Ran a half marathon in June"])
    }

    @Test(arguments: Backend.available) func aFilterSeesFactsChangedAfterTheIndexLoaded(on backend: Backend)
        async throws
    {
        let kb = try await Self.knowledgeBase(on: backend)
        #expect(try await Self.contents(kb, mode: .semantic, since: Self.may1).count == 2)
        try await kb.addFact(
            NewFact(
                content: "Ran up the hill in March", topicPath: "Running", createdAt: Timestamp.parse("2025-03-02")!))
        #expect(
            try await Self.contents(kb, mode: .semantic, until: Self.may1)
                == ["Ran a trail race in April", "Ran up the hill in March"])
    }

    @Test(arguments: Backend.available) func aFactWithoutADateIsStatedAtTheClocksNow(on backend: Backend) async throws {
        let kb = try await backend.empty(now: { Timestamp.parse("2024-02-29T08:00:00Z")! })
        let fact = try await kb.addFact(NewFact(content: "Leap day note", topicPath: "Misc")).fact
        #expect(fact.createdAt == Timestamp.parse("2024-02-29T08:00:00Z")!)
    }

    @Test func boundsReadPeriodsAsWholeAndAgesFromNow() throws {
        let now = Timestamp.parse("2025-06-10T12:00:00Z")!
        #expect(TimeBound("2025-06")!.resolved(as: .since, now: now) == Timestamp.parse("2025-06-01")!)
        #expect(TimeBound("2025-06")!.resolved(as: .until, now: now) == Timestamp.parse("2025-07-01")!)
        #expect(TimeBound("2025-12")!.resolved(as: .until, now: now) == Timestamp.parse("2026-01-01")!)
        #expect(TimeBound("2025-05-31")!.resolved(as: .until, now: now) == Timestamp.parse("2025-06-01")!)
        #expect(TimeBound("2024")!.resolved(as: .until, now: now) == Timestamp.parse("2025-01-01")!)
        #expect(TimeBound("7d")!.resolved(as: .since, now: now) == Timestamp.parse("2025-06-03T12:00:00Z")!)
        #expect(TimeBound("36h")!.resolved(as: .until, now: now) == Timestamp.parse("2025-06-09T00:00:00Z")!)
        #expect(TimeBound("3mo")!.resolved(as: .since, now: now) == now.addingTimeInterval(-90 * 86_400))
        #expect(TimeBound("yesterday")!.resolved(as: .since, now: now) == Timestamp.parse("2025-06-09")!)
        #expect(TimeBound("today")!.resolved(as: .until, now: now) == Timestamp.parse("2025-06-11")!)
        #expect(
            TimeBound("2025-05-01T09:30:00+02:00")!.resolved(as: .until, now: now) == Timestamp.parse(
                "2025-05-01T07:30:00Z")!)
    }

    @Test(arguments: ["", "7", "d", "-3d", "7 days", "2025-13", "2025-02-30", "25-05", "2025-5", "last week", "７d"])
    func wrongBoundsAreRejectedWithTheForms(text: String) throws {
        #expect(TimeBound(text) == nil)
        #expect(throws: MnemoError.self) { try TimeBound.parse(text, field: "since") }
        do {
            _ = try TimeBound.parse(text, field: "since")
        } catch {
            #expect("\(error)".contains("since"))
            #expect("\(error)".contains("7d"))
        }
    }
}
