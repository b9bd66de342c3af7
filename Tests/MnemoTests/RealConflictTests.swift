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
        #expect(verdict("Sister lives in Lisbon", "Sister lives in Porto", 0.72) == .conflict(.differentNames))
        #expect(
            verdict("My dentist appointment is on 12 June", "My dentist appointment is on 12 July", 0.9)
                == .conflict(.differentValues))
        #expect(
            verdict("The flat costs 950 euros a month", "The flat costs 1100 euros a month", 0.7)
                == .conflict(.differentValues))
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
                == .conflict(.differentValues))
        // The same wording as a plain fact is a changed value.
        #expect(verdict("Swims on Tuesdays", "Swims on Thursdays", 0.95) == .conflict(.differentValues))
    }

    /// Lines of a chat (LoCoMo's, with their speaker and date) that greet, thank or say goodbye
    /// in other words are close in meaning, and their dates differ, but state no value of anything.
    @Test func chatLinesWithNoAttributeInCommonAreNotAConflict() {
        #expect(
            verdict(
                "Nate (8:16 pm on 25 October, 2022) Hey Joanna, what's been up since we last chatted? How's it going?",
                "Nate (7:31 pm on 21 January, 2022) Hey Joanna! Long time no see! What's up? Anything fun going on?",
                0.9) == .distinct)
        #expect(
            verdict(
                "John (3:14 pm on 13 August, 2023) Thanks, Maria! You too! Stay safe!",
                "John (3:14 pm on 13 August, 2023) Thanks, Maria! I'm off to spend some time with them now. Have a good day!",
                0.9) == .distinct)
        #expect(
            verdict(
                "Caroline (2:24 pm on 14 August, 2023) Thanks, Melanie. It means a lot to share this with you.",
                "Melanie (8:18 pm on 6 July, 2023) Wow, Caroline! It's great you have people to support you!", 0.88)
                == .distinct)
        // A sentence's first word is capitalised by grammar: "Good" is no name to set aside.
        #expect(
            verdict(
                "Nate (5:54 pm on 9 November, 2022) Bye Joanna!",
                "Nate (6:03 pm on 5 September, 2022) Bye Joanna! Good luck!", 0.94)
                == .distinct)
        #expect(
            verdict(
                "Joanna (10:55 am on 24 June, 2022) Thanks Nate! Your support is greatly appreciated.",
                "Joanna (1:43 pm on 24 March, 2022) Thanks, Nate! Your support means a lot.", 0.93) == .distinct)
        // The same frame in the same chat's words still conflicts when a value changes.
        #expect(
            verdict(
                "Nate (1:43 pm on 14 September, 2022) My rent is 950 dollars a month now.",
                "Nate (2:01 pm on 23 January, 2022) My rent is 850 dollars a month now.", 0.95)
                == .conflict(.differentValues))
    }

    /// Every conflict the fixtures plant is still one: the frame check takes none of them away.
    @Test func reworkedValuesAndWordsInTheSameFrameStillConflict() {
        #expect(
            verdict(
                "Has a dentist check-up booked for 12 July at 10:00.",
                "Has a dentist check-up booked for 12 June at 10:00.", 0.984) == .conflict(.differentValues))
        #expect(
            verdict(
                "Does not like the green olives his mother cures at home.",
                "Likes the green olives his mother cures at home.", 0.935) == .conflict(.negation))
        #expect(
            verdict(
                "Clara has been vegan for about ten years.", "Clara has been vegetarian for about ten years.", 0.912)
                == .conflict(.substitutedWord))
        #expect(
            verdict(
                "On Wednesdays I go bouldering at Vertigo with Pedro.",
                "On Wednesdays I go bouldering at Vertigo with Tiago.", 0.848) == .conflict(.differentNames))
        #expect(verdict("Works as a nurse", "Works as a teacher", 0.8) == .conflict(.substitutedWord))
        // Reworded by a word around another value.
        #expect(
            verdict("My sister lives in Lisbon", "Sister now lives in Porto", 0.86) == .conflict(.differentNames))
        #expect(
            verdict("Dentist appointment on 12 June", "Moved my dentist appointment to 12 July", 0.88)
                == .conflict(.differentValues))
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
