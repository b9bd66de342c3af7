import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo
@testable import MnemoEncoder

/// A conflict is the same attribute of the same subject stated with another value; facts about
/// another person or another occasion are not one.
@Suite("Real conflicts", .storesClosed)
struct RealConflictTests {
    let rule = NearDuplicateRule()

    func verdict(_ a: String, _ b: String, _ similarity: Double, type: FactType = .fact) -> NearDuplicateRule.Verdict {
        rule.verdict(a, b, typeA: type, typeB: type, similarity: similarity)
    }

    @Test func anotherValueOfTheSameAttributeIsAConflictEvenBelowTheMergeThreshold() {
        #expect(verdict("Sister lives in Lisbon", "Sister lives in Porto", 0.72) == .conflict("different names"))
        #expect(
            verdict("My dentist appointment is on 12 June", "My dentist appointment is on 12 July", 0.9)
                == .conflict("different values"))
        #expect(
            verdict("The flat costs 950 euros a month", "The flat costs 1100 euros a month", 0.7)
                == .conflict("different values"))
        // More than one word changed needs the merge threshold's closeness.
        #expect(verdict("Sister lives in Lisbon", "Sister has moved to Porto", 0.72) == .distinct)
    }

    @Test func anotherPersonIsNotAConflict() {
        #expect(verdict("My aunt lives in Braga", "My uncle lives in Braga", 0.918) == .distinct)
        #expect(verdict("My niece lives in Faro", "My nephew lives in Faro", 0.95) == .distinct)
        #expect(verdict("Sister lives in Lisbon", "Brother lives in Lisbon", 0.9) == .distinct)
        #expect(verdict("Marta teaches piano", "Laura teaches piano", 0.9) == .distinct)
    }

    @Test func anotherItemOfASeriesOrOccasionIsNotAConflict() {
        #expect(
            verdict("Had a long call with Dev in week 99", "Had a long call with Dev in week 499", 0.98) == .distinct)
        #expect(
            verdict("Concurrent fact number 3 about hobby 1", "Concurrent fact number 7 about hobby 2", 0.97)
                == .distinct)
        #expect(verdict("Ran 10 km on Sunday", "Ran 10 km on Monday", 0.93, type: .experience) == .distinct)
        #expect(verdict("Visited Kyoto in 2019", "Visited Kyoto in 2023", 0.95, type: .experience) == .distinct)
        // Another amount on a weekday that recurs: another run (`mnemo demo` listed this pair).
        #expect(verdict("I ran 10 km on Sunday", "I ran 21 km on Sunday", 0.95, type: .experience) == .distinct)
        #expect(verdict("Ran 10 km", "Ran 21 km", 0.93, type: .experience) == .distinct)
        // A calendar date pins both to one run: then the distances conflict.
        #expect(
            verdict("Ran 10 km on 6 October 2025", "Ran 21 km on 6 October 2025", 0.95, type: .experience)
                == .conflict("different values"))
        // The same wording as a plain fact is a changed value.
        #expect(verdict("Swims on Tuesdays", "Swims on Thursdays", 0.95) == .conflict("different values"))
    }

    /// Vectors pinned at the cosines MiniLM gives these pairs.
    static func embedder() -> SeededEmbedder {
        SeededEmbedder(
            dimension: 4,
            pinned: [
                "Sister lives in Lisbon": [1, 0, 0, 0],
                "Sister lives in Porto": [0.72, 0.69397, 0, 0],
                "My aunt lives in Braga": [0, 0, 1, 0],
                "My uncle lives in Braga": [0, 0, 0.918, 0.39658],
            ])
    }

    @Test(arguments: Backend.available) func theNewerOfAConflictIsTheOneStatedLater(on backend: Backend) async throws {
        let kb = try await backend.empty(embedder: Self.embedder())
        // Ingested in the other order: Porto was said in June, Lisbon (stored second) in January.
        try await kb.addFact(
            NewFact(content: "Sister lives in Porto", topicPath: "Family", createdAt: Timestamp.parse("2025-06-01")!))
        try await kb.addFact(
            NewFact(content: "Sister lives in Lisbon", topicPath: "Family", createdAt: Timestamp.parse("2025-01-10")!))
        try await kb.addFact(NewFact(content: "My aunt lives in Braga", topicPath: "Family"))
        try await kb.addFact(NewFact(content: "My uncle lives in Braga", topicPath: "Family"))
        let conflicts = try await kb.conflicts()
        #expect(conflicts.count == 1)
        #expect(conflicts.first?.newer.content == "Sister lives in Porto")
        #expect(conflicts.first?.older.content == "Sister lives in Lisbon")
        #expect(try await kb.stats().facts == 4)
    }

    /// Lines that differ only by a number, in one batch, with an embedder that makes them close.
    static func diary(_ count: Int) -> [NewFact] {
        (1...count).map {
            NewFact(content: "Went climbing with Dev in week \($0)", topicPath: "Diary", type: .experience)
        }
    }

    /// What ingesting them costs is a benchmark's to say (timings in a test fail on a busy
    /// machine); this says what they become.
    @Test(arguments: Backend.available) func numberedLinesMakeNoConflicts(on backend: Backend) async throws {
        let diaryBase = try await backend.empty(embedder: HashingEmbedder())
        try await diaryBase.addFacts(Self.diary(200))
        #expect(try await diaryBase.conflicts().isEmpty)
        #expect(try await diaryBase.stats().facts == 200)
    }

    @Test(.enabled(if: ModelFixture.shouldRunModelTests, ModelFixture.skipReason), arguments: Backend.available)
    func withMiniLMTheIssuesCasesComeOutRight(on backend: Backend) async throws {
        let kb = try await backend.empty(embedder: try SentenceEncoder(modelDirectory: ModelFixture.requireModel()))
        try await kb.addFacts([
            NewFact(content: "Sister lives in Lisbon", topicPath: "Family", createdAt: Timestamp.parse("2025-01-10")!),
            NewFact(content: "My aunt lives in Braga", topicPath: "Family"),
        ])
        try await kb.addFacts([
            NewFact(content: "Sister lives in Porto", topicPath: "Family", createdAt: Timestamp.parse("2025-06-01")!),
            NewFact(content: "My uncle lives in Braga", topicPath: "Family"),
        ])
        try await kb.addFacts(
            (1...20).map { NewFact(content: "Concurrent fact number \($0) about hobby \($0 % 4)", topicPath: "Test") })
        try await kb.addFacts(Self.diary(40))
        let conflicts = try await kb.conflicts()
        #expect(conflicts.map(\.newer.content) == ["Sister lives in Porto"])
    }
}
