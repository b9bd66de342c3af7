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

    @Test func aSourceThatNeverExistedOrWentElsewhereIsNotFound() async throws {
        let kb = try await TestKnowledgeBase.with([
            NewFact(content: "Ran a half marathon", topicPath: "Running"),
            NewFact(content: "Swims on Sundays", topicPath: "Swimming"),
        ])
        await #expect(throws: MnemoError.notFound(.topic("Runing"))) {
            try await kb.mergeTopics(["Runing"], into: "Sport")
        }
        try await kb.mergeTopics(["Running"], into: "Sport")
        await #expect(throws: MnemoError.notFound(.topic("Running"))) {
            try await kb.mergeTopics(["Running"], into: "Swimming")
        }
    }
}
