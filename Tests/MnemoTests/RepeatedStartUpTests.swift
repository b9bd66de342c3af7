import Foundation
import MnemoExamples
import MnemoTestSupport
import Testing

@testable import Mnemo

/// What an app runs every time it starts runs again without failing: repeated facts are
/// `unchanged`, topics already created are found, and a merge done before is a no-op.
@Suite("Repeating start-up operations")
struct RepeatedStartUpTests {
    @Test func theGettingStartedExampleRunsTwiceOnOneFile() async throws {
        let folder = try TestKnowledgeBase.temporaryFolder()
        try await GettingStarted.run(in: folder)
        try await GettingStarted.run(in: folder)
        let kb = try KnowledgeBase(
            url: folder.appendingPathComponent("memory.sqlite"),
            configuration: .init(namespace: "user-42"))
        #expect(try await kb.topic(at: "Health and Fitness") == nil)
        #expect(try await kb.facts(matching: FactFilter(topicPath: "Health & Fitness")).count == 1)
        #expect(try await kb.stats().facts == 2)
    }

    @Test func aRepeatedMergeReportsTheSourceAsAlreadyMergedAndWritesNothing() async throws {
        let kb = try await TestKnowledgeBase.with([
            NewFact(content: "Ran a half marathon", topicPath: "Health and Fitness")
        ])
        let first = try await kb.mergeTopics(["Health and Fitness"], into: "Health & Fitness")
        #expect(first.mergedTopics == ["Health and Fitness"])
        #expect(first.alreadyMerged.isEmpty)
        let operations = try await kb.operations().count

        let again = try await kb.mergeTopics(["Health and Fitness"], into: "Health & Fitness")
        #expect(again.mergedTopics.isEmpty)
        #expect(again.alreadyMerged == ["Health and Fitness"])
        #expect(again.movedFacts == 0)
        #expect(try await kb.operations().count == operations)
        #expect(try await kb.facts(matching: FactFilter(topicPath: "Health & Fitness")).count == 1)
    }

    @Test func aRepeatedMergeStillMergesSourcesThatAreNew() async throws {
        let kb = try await TestKnowledgeBase.with([
            NewFact(content: "Ran a half marathon", topicPath: "Health and Fitness")
        ])
        try await kb.mergeTopics(["Health and Fitness"], into: "Health & Fitness")
        try await kb.addFact(NewFact(content: "Swims on Sundays", topicPath: "Fitness"))
        let report = try await kb.mergeTopics(["Health and Fitness", "Fitness"], into: "Health & Fitness")
        #expect(report.alreadyMerged == ["Health and Fitness"])
        #expect(report.mergedTopics == ["Fitness"])
        #expect(report.movedFacts == 1)
    }

    @Test func aSourceThatNeverExistedIsNotFoundAndOneMergedElsewhereSaysWhere() async throws {
        let kb = try await TestKnowledgeBase.with([
            NewFact(content: "Ran a half marathon", topicPath: "Running"),
            NewFact(content: "Swims on Sundays", topicPath: "Swimming"),
        ])
        await #expect(throws: MnemoError.notFound(.topic("Runing"))) {
            try await kb.mergeTopics(["Runing"], into: "Sport")
        }
        try await kb.mergeTopics(["Running"], into: "Sport")
        let elsewhere = MnemoError.notFound(.mergedTopic("Running", into: "Sport"))
        await #expect(throws: elsewhere) {
            try await kb.mergeTopics(["Running"], into: "Swimming")
        }
        await #expect(throws: MnemoError.notFound(.mergedTopic("running", into: "Sport"))) { // as spelled
            try await kb.mergeTopics(["running"], into: "Swimming")
        }
        #expect(elsewhere.description == #"no topic at "Running": it was merged into "Sport""#)
        // Where it is now: after a rename of the target, and after the target was merged in turn.
        try await kb.renameTopic("Sport", to: "Sports")
        await #expect(throws: MnemoError.notFound(.mergedTopic("Running", into: "Sports"))) {
            try await kb.mergeTopics(["Running"], into: "Swimming")
        }
        try await kb.mergeTopics(["Sports"], into: "Health")
        await #expect(throws: MnemoError.notFound(.mergedTopic("Running", into: "Health"))) {
            try await kb.mergeTopics(["Running"], into: "Swimming")
        }
    }

    /// Getting Started says what a repeat does: nothing new is stored, but a mention is counted.
    @Test func aRepeatedFactCountsAMentionEachStart() async throws {
        let folder = try TestKnowledgeBase.temporaryFolder()
        try await GettingStarted.run(in: folder)
        let kb = try KnowledgeBase(
            url: folder.appendingPathComponent("memory.sqlite"), configuration: .init(namespace: "user-42"))
        let before = try await kb.history(ofFact: 1).count
        try await GettingStarted.run(in: folder)
        #expect(try await kb.fact(id: 1)?.mentionCount == 2)
        #expect(try await kb.history(ofFact: 1).count == before + 1)
    }

    @Test func factsAddedLeavingRepeatsUnchangedWriteNothingTheSecondTime() async throws {
        let kb = try KnowledgeBase.inMemory(
            embedder: SeededEmbedder(
                dimension: 4,
                pinned: [
                    "Prefers tea to coffee": [1, 0, 0, 0],
                    "Would pick tea over coffee": [0.95, 0.3122, 0, 0], // a near duplicate of the first
                    "Lives in Porto": [0, 0, 1, 0],
                ]))
        let startUp = [
            NewFact(content: "Prefers tea to coffee", topicPath: "Food", type: .preference, sources: ["onboarding"]),
            NewFact(content: "Would pick tea over coffee", topicPath: "Food", type: .preference, importance: .high),
            NewFact(content: "Lives in Porto", topicPath: "Home"),
        ]
        let first = try await kb.addFacts(startUp, repeats: .leaveUnchanged)
        #expect(first.map(\.isAdded) == [true, false, true])
        // The near duplicate leaves the stored fact alone: not merged, its importance kept.
        let tea = try #require(try await kb.fact(id: first[0].id))
        #expect(first[1] == .unchanged(tea))
        #expect(first[1].fact.importance == .medium && first[1].fact.mentionCount == 1)
        let stored = try await kb.facts(matching: FactFilter(activity: .all))
        let operations = try await kb.operations().count
        let history = try await kb.history(ofFact: first[0].id).count

        let second = try await kb.addFacts(
            startUp.map {
                var fact = $0
                fact.sources = ["start-2"]
                return fact
            }, repeats: .leaveUnchanged)
        #expect(second.map(\.isAdded) == [false, false, false])
        #expect(second.map(\.id) == [first[0].id, first[0].id, first[2].id])
        #expect(try await kb.facts(matching: FactFilter(activity: .all)) == stored)
        #expect(try await kb.operations().count == operations)
        #expect(try await kb.history(ofFact: first[0].id).count == history)

        // The default still counts the repeat and merges the near duplicate.
        let counted = try await kb.addFacts(startUp)
        #expect(counted[0].fact.mentionCount == 2)
        #expect(counted[1].fact.importance == .high)
    }
}
