import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

@Suite("Merge and dedupe reports", .storesClosed)
struct MaintenanceReportTests {
    @Test(arguments: Backend.available) func mergingIntoAMissingPathCreatesItAndItsAncestors(on backend: Backend)
        async throws
    {
        let kb = try await backend.with([
            NewFact(content: "Runs on Tuesdays", topicPath: "Running"),
            NewFact(content: "Ran a 10k in May", topicPath: "Running/Races"),
        ])
        let report = try await kb.mergeTopics(["Running"], into: "Health/Sport/Running")
        #expect(report.target == "Health/Sport/Running")
        #expect(report.movedFacts == 2)
        #expect(try await kb.topic(at: "Health/Sport") != nil)
        #expect(try await kb.topic(at: "Running") == nil)
        #expect(try await kb.search("10k").first?.fact.topicPath == "Health/Sport/Running/Races")
        // A dry run creates nothing.
        let dry = try await kb.mergeTopics(["Health/Sport/Running"], into: "Archive/Running", dryRun: true)
        #expect(dry.movedFacts == 2)
        #expect(try await kb.topic(at: "Archive") == nil)
        // A missing source is still an error, and creates no target.
        await #expect(throws: MnemoError.self) { try await kb.mergeTopics(["Cycling"], into: "Elsewhere") }
        #expect(try await kb.topic(at: "Elsewhere") == nil)
    }

    @Test func theCommandLineMergesIntoANewPath() throws {
        let path = try TestKnowledgeBase.temporaryPath()
        _ = try CLIRunner.run([
            "ingest", ModelFixture.fixtures.appendingPathComponent("samples/facts.jsonl").path, "--db", path,
            "--no-embeddings",
        ])
        let merge = try CLIRunner.run(["merge", "Pets", "--into", "Family/Animals/Pets", "--json", "--db", path])
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect((try merge.json() as? [String: Any])?["target"] as? String == "Family/Animals/Pets")
        #expect(try CLIRunner.run(["topic", "Family/Animals", "--db", path]).status == 0)
    }

    @Test(arguments: Backend.available) func movedFactsCountsTheFactsOfSubtopicsThatMoveWhole(on backend: Backend)
        async throws
    {
        let kb = try await backend.with([
            NewFact(content: "Climbs at Vertigo", topicPath: "Sport/Climbing"),
            NewFact(content: "Led a 6b", topicPath: "Sport/Climbing/Grades"),
            NewFact(content: "Runs on Tuesdays", topicPath: "Fitness/Running"),
        ])
        let report = try await kb.mergeTopics(["Sport"], into: "Fitness")
        #expect(report.movedFacts == 2)
    }

    @Test(arguments: Backend.available) func dedupeReportsWhatItsDryRunSaidAndWhatHistoryShows(on backend: Backend)
        async throws
    {
        let kb = try await backend.empty(embedder: UndoTests.embedder())
        try await kb.addFacts(
            [
                NewFact(content: "I prefer tea to coffee", topicPath: "Food & Cooking", type: .preference),
                NewFact(content: "Prefers tea over coffee", topicPath: "Cooking and Food", type: .preference),
                NewFact(content: "Ran 10 km on Sunday", topicPath: "Running", type: .experience),
                NewFact(content: "On Sunday I did a 10 km run", topicPath: "Running", type: .experience),
            ], nearDuplicates: nil)
        let dryRun = try await kb.dedupe(dryRun: true)
        #expect(dryRun.mergedFacts == 2)
        #expect(dryRun.topicMergedFacts == 1)
        #expect(try await kb.stats().facts == 4)
        let report = try await kb.dedupe()
        #expect(report.mergedFacts == dryRun.mergedFacts)
        #expect(report.factClusters == dryRun.factClusters)
        var mergedInto = 0
        for id in Int64(1)...4 {
            mergedInto += try await kb.history(ofFact: id).filter { $0.kind == .mergedInto }.count
        }
        #expect(mergedInto == report.mergedFacts)
        #expect(try await kb.stats().facts == 2)
    }
}
