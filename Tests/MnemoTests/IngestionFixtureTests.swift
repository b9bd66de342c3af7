import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// The ingestion samples of `Fixtures/` (see its README) give the verdicts written next to them.
@Suite(.storesClosed) struct IngestionFixtureTests {
    static let samples = ModelFixture.fixtures.appendingPathComponent("samples")

    /// `{"lines": {"1": "ok", "2": "invalid_json", …}, "good": n, "rejected": n, "blank": ["7"]}`.
    struct Expected: Decodable {
        var lines: [String: String]
        var good: Int
        var rejected: Int
        var blank: [String]
    }

    @Test(arguments: ["bad_records", "bad_utf8"])
    func everyLineGetsItsExpectedVerdict(sample: String) async throws {
        let expected = try JSONDecoder().decode(
            Expected.self, from: Data(contentsOf: Self.samples.appendingPathComponent("\(sample).expected.json")))
        let kb = try KnowledgeBase.inMemory()
        let report = try await kb.ingest(contentsOf: Self.samples.appendingPathComponent("\(sample).jsonl"))
        #expect(report.added == expected.good)
        #expect(report.rejectedCount == expected.rejected)
        var verdicts = Dictionary(uniqueKeysWithValues: report.rejected.map { ("\($0.line ?? 0)", $0.code.rawValue) })
        for line in expected.blank { verdicts[line] = "blank" }
        for (line, verdict) in expected.lines where verdict == "ok" { #expect(verdicts[line] == nil, "line \(line)") }
        #expect(verdicts == expected.lines.filter { $0.value != "ok" })
    }

    @Test(arguments: Backend.available) func extractedSamplesMapCategoriesAndConfidence(on backend: Backend)
        async throws
    {
        let kb = try await backend.empty()
        let wrapped = try await kb.ingest(contentsOf: Self.samples.appendingPathComponent("extracted.json"))
        let bare = try await kb.ingest(contentsOf: Self.samples.appendingPathComponent("extracted_array.json"))
        #expect(wrapped.format == .extracted && wrapped.added == 16 && wrapped.rejected.isEmpty)
        #expect(bare.format == .extracted && bare.added + bare.unchanged == 5 && bare.rejected.isEmpty)
        let facts = try await kb.facts(limit: 100)
        let lives = try #require(facts.first { $0.content.hasPrefix("Lives in Porto") })
        #expect(lives.topicPath == "Location" && lives.type == .fact && lives.importance == .high)
        let dark = try #require(facts.first { $0.content.hasPrefix("Prefers dark roast") })
        #expect(dark.topicPath == "Preference" && dark.type == .preference && dark.importance == .medium)
        let stuck = try #require(facts.first { $0.content.hasPrefix("Got stuck in Frankfurt") })
        #expect(stuck.type == .experience && stuck.importance == .negligible)
        let tabs = try #require(facts.first { $0.content.hasPrefix("Thinks tabs") })
        #expect(tabs.topicPath == "Opinion" && tabs.type == .fact && tabs.importance == .low)
    }

    @Test(arguments: Backend.available) func topicTreeSample(on backend: Backend) async throws {
        let kb = try await backend.empty()
        let report = try await kb.ingest(contentsOf: Self.samples.appendingPathComponent("topics.json"))
        #expect(report.format == .topics && report.added == 20 && report.rejected.isEmpty)
        let paths = Set(try await kb.facts(limit: 100).map(\.topicPath))
        #expect(paths.contains("Hobbies/Outdoors/Climbing") && paths.contains("Technology/iOS Development/SwiftUI"))
    }

    @Test func jsonlSampleWithNamespacesAndUnknownFields() async throws {
        let kb = try KnowledgeBase.inMemory()
        // The sample names namespaces, so records must be let choose them; pinned, they are rejected.
        let pinned = try await kb.ingest(contentsOf: Self.samples.appendingPathComponent("facts.jsonl"))
        #expect(pinned.rejected.map(\.code) == [.foreignNamespace, .foreignNamespace])
        let report = try await kb.ingest(
            contentsOf: Self.samples.appendingPathComponent("facts.jsonl"),
            options: IngestOptions(namespacePolicy: .fromRecords))
        #expect(report.added == 2 && report.unchanged == 18 && report.rejected.isEmpty)
        #expect(try await kb.stats().facts == 18)
        #expect(try await kb.inNamespace("user-2").stats().facts == 2)
    }

    @Test(arguments: Backend.available) func knowledgeSampleStoresEachExactDuplicateOnce(on backend: Backend)
        async throws
    {
        let kb = try await backend.empty()
        let url = ModelFixture.fixtures.appendingPathComponent("knowledge.jsonl")
        let report = try await kb.ingest(contentsOf: url)
        #expect(report.records == 349 && report.added == 343 && report.unchanged == 6 && report.rejected.isEmpty)
        // Lower-case spellings of existing topics land in them, displayed as first seen.
        let running = try await kb.facts(matching: FactFilter(topicPath: "health & fitness/running"), limit: 500)
        #expect(!running.isEmpty && running.allSatisfy { $0.topicPath.hasPrefix("Health & Fitness/Running") })
        let again = try await kb.ingest(contentsOf: url)
        #expect(again.added == 0 && again.unchanged == 349)
    }
}
