import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo
@testable import MnemoEncoder

/// Records headed by the date they were written (chat turns, diary lines): the date says when,
/// not what, so it neither proves two records the same nor sets them in conflict.
///
/// The chat turns are LoCoMo's (`../shared/data/locomo-dev`, conversations conv-30, conv-42 and
/// conv-43), as `mnemo ingest` stores them: speaker, date and text; the similarities are
/// all-MiniLM-L6-v2's.
@Suite("Records headed by a date", .storesClosed)
struct DatedRecordTests {
    let rule = NearDuplicateRule()

    func verdict(_ a: String, _ b: String, _ similarity: Double) -> NearDuplicateRule.Verdict {
        rule.verdict(a, b, typeA: .fact, typeB: .fact, similarity: similarity)
    }

    @Test(arguments: [
        ("Joanna (7:31 pm on 21 January, 2022) Cool, Nate!", "Joanna Cool, Nate!", 1),
        ("2025-06-12: Ran 10 km", "Ran 10 km", 0),
        ("[12 June 2025] Called mum", "Called mum", 0),
        ("June 12, 2025: Dentist at 10:00", "Dentist at 10:00", 0),
        ("  Tim [9:52 am on 1 December, 2023] Thanks!", "Tim Thanks!", 1),
    ])
    func aDateThatHeadsARecordIsItsStamp(text: String, unstamped: String, statementStart: Int) throws {
        let stamp = try #require(DateStamp(text))
        #expect(stamp.unstamped == unstamped)
        #expect(stamp.statementStart == statementStart)
        #expect(!stamp.values.isEmpty)
    }

    @Test(arguments: [
        "Goal: run the Porto Marathon in under 3:45 this November.",
        "Moved to Lisbon (in 2019)",
        "Weighs 72 kg (down from 80)",
        "Monday: gym at 19:00",
        "Gym at 19:00: legs",
        "Joanna (my cousin) moved to Porto in 2021",
        "Nate (7:31 pm on 21 January, 2022",
        "Bought a bike for €300: a gift",
    ])
    func aDateInsideTheStatementIsNoStamp(text: String) {
        #expect(DateStamp(text) == nil)
    }

    @Test func turnsOfOneSessionAreNotProvedTheSameByTheirDate() {
        // Each of these merged into the first on ingest: their shared date proved "the same values".
        #expect(
            verdict(
                "Jon (7:28 pm on 23 March, 2023) Thanks for being there for me. Your help means a lot.",
                "Jon (7:28 pm on 23 March, 2023) Thanks, I'm really grateful for your help with staying motivated.",
                0.783) == .distinct)
        #expect(
            verdict(
                "Joanna (7:31 pm on 21 January, 2022) Cool, Nate! So we both have similar interests. What type of movies do you like best?",
                "Nate (7:31 pm on 21 January, 2022) I love action and sci-fi movies, the effects are so cool! What about you, what's your favorite genre?",
                0.746) == .distinct)
        #expect(
            verdict(
                "Tim (2:52 pm on 31 August, 2023) Thanks! I'll definitely have a blast. I'll let you know how it goes!",
                "Tim (2:52 pm on 31 August, 2023) Thanks! I'll make sure to have a safe trip.", 0.815) == .distinct)
        #expect(
            verdict(
                "Nate (8:16 pm on 25 October, 2022) They eat a combination of vegetables, fruits, and insects.",
                "Nate (8:16 pm on 25 October, 2022) I love seeing them eat fruit - they get so hyped and it's so cute!",
                0.72) == .distinct)
        // Nor by the closeness their shared date and speaker give them (0.60 without).
        #expect(
            verdict(
                "John (3:35 pm on 26 December, 2023) Wow! Sounds like a tough journey.",
                "John (3:35 pm on 26 December, 2023) That sounds exciting!", 0.859) == .distinct)
        // Values the statements share still prove them the same, in one frame.
        #expect(
            verdict("2025-06-12: Ran 10 km along the river", "2025-06-12: Ran 10 km by the river", 0.8)
                == .duplicate)
    }

    @Test func turnsOfOtherDaysAreNeitherOneNorAConflict() {
        #expect(
            verdict(
                "Joanna (3:00 pm on 25 May, 2022) Thanks, Nate! Your support is greatly appreciated. I'll make sure to keep you updated.",
                "Joanna (10:55 am on 24 June, 2022) Thanks Nate! Your support is greatly appreciated. I'll make sure to keep you updated.",
                0.969) == .distinct)
        #expect(
            verdict(
                "Joanna (2:12 pm on 5 June, 2022) Bye Nate!", "Joanna (10:58 am on 9 October, 2022) See ya Nate!", 0.927
            ) == .distinct)
        #expect(
            verdict("Jon (8:29 pm on 13 June, 2023) Thanks!", "Jon (1:25 pm on 9 July, 2023) Bye!", 0.852) == .distinct)
        #expect(
            verdict(
                "John (10:29 am on 9 August, 2023) Me too. Talk to you soon!",
                "John (3:37 pm on 16 December, 2023) Me too. Talk to you later!", 0.922) == .distinct)
        #expect(
            verdict(
                "Joanna (11:15 am on 6 October, 2022) Thanks, Nate! I won't give up on my goals as long as you're cheering me on.",
                "Joanna (2:01 pm on 21 October, 2022) Thanks, Nate! Your encouragement really means a lot.", 0.869)
                == .distinct)
    }

    @Test func oneAttributeStatedOnOtherDaysIsStillAConflict() {
        #expect(
            verdict("2025-06-12: Sister lives in Lisbon", "2025-09-01: Sister lives in Porto", 0.72)
                == .conflict(.differentNames))
        #expect(
            verdict(
                "Nate (1:43 pm on 14 September, 2022) My rent is 950 dollars a month now.",
                "Nate (2:01 pm on 23 January, 2022) My rent is 850 dollars a month now.", 0.95)
                == .conflict(.differentValues))
        #expect(
            verdict("[3 May 2025] I eat meat again", "[9 June 2025] I don't eat meat again", 0.9)
                == .conflict(.negation))
    }

    /// Real turns and real vectors, as `mnemo ingest` meets them: each group merged into one fact
    /// before, and the goodbyes of other days were conflicts.
    @Test(.enabled(if: ModelFixture.shouldRunModelTests, ModelFixture.skipReason), arguments: Backend.available)
    func chatTurnsIngestWithoutMergesOrConflicts(on backend: Backend) async throws {
        let kb = try await backend.empty(embedder: try SentenceEncoder(modelDirectory: ModelFixture.requireModel()))
        for turn in Self.turns {
            let outcome = try await kb.addFact(NewFact(content: turn, topicPath: "Chats"))
            #expect(outcome.isAdded, "\(turn) → \(outcome)")
        }
        #expect(try await kb.conflicts().isEmpty)
    }

    static let turns = [
        "Jon (7:28 pm on 23 March, 2023) Thanks for being there for me. Your help means a lot.",
        "Jon (7:28 pm on 23 March, 2023) Thanks, I'm really grateful for your help with staying motivated.",
        "Gina (10:04 am on 19 June, 2023) Can't wait to make more memories at your dance studio!",
        "Gina (10:04 am on 19 June, 2023) Can't wait for tomorrow's grand opening!",
        "Joanna (7:31 pm on 21 January, 2022) Cool, Nate! So we both have similar interests. What type of movies do you like best?",
        "Nate (7:31 pm on 21 January, 2022) I love action and sci-fi movies, the effects are so cool! What about you, what's your favorite genre?",
        "Joanna (10:57 am on 22 August, 2022) Wow, that series looks awesome! I'll have to check it out sometime!",
        "Joanna (10:57 am on 22 August, 2022) Wow, sounds great! I'll definitely add it to my list; thanks for the recommendation!",
        "Tim (2:52 pm on 31 August, 2023) Thanks! I'll definitely have a blast. I'll let you know how it goes!",
        "Tim (2:52 pm on 31 August, 2023) Thanks! I'll make sure to have a safe trip.",
        "John (1:08 pm on 11 August, 2023) Thanks! Talk to you later!",
        "John (3:37 pm on 16 December, 2023) Me too. Talk to you later!",
        "Joanna (3:56 pm on 4 November, 2022) You got it! See you tomorrow!",
        "Joanna (5:54 pm on 9 November, 2022) Alright, see you tomorrow!",
        "Joanna (2:12 pm on 5 June, 2022) Bye Nate!",
        "Joanna (10:58 am on 9 October, 2022) See ya Nate!",
        "Nate (11:54 am on 2 May, 2022) Bye!",
        "Nate (3:35 pm on 12 May, 2022) See ya!",
    ]
}
