import Foundation
import Testing

@testable import Mnemo

/// A report names every fact it counts: the merged-facts total of a dedupe or a topic merge is
/// the number of duplicates in the clusters it lists.
@Suite("Reports name what they count")
struct ReportNamingTests {
    /// Two facts that meet when "Cooking and Food" merges into "Food & Cooking", and two in one
    /// topic: near duplicates under the test embedder's pinned vectors.
    static func knowledgeBase() async throws -> KnowledgeBase {
        let kb = try KnowledgeBase.inMemory(embedder: UndoTests.embedder())
        try await kb.addFacts(
            [
                NewFact(content: "I prefer tea to coffee", topicPath: "Food & Cooking", type: .preference),
                NewFact(content: "Prefers tea over coffee", topicPath: "Cooking and Food", type: .preference),
                NewFact(content: "Ran 10 km on Sunday", topicPath: "Running", type: .experience),
                NewFact(content: "On Sunday I did a 10 km run", topicPath: "Running", type: .experience),
            ], nearDuplicates: nil)
        return kb
    }

    @Test func aDedupeReportListsTheClustersOfItsTopicMergesToo() async throws {
        let kb = try await Self.knowledgeBase()
        for report in [try await kb.dedupe(dryRun: true), try await kb.dedupe()] {
            #expect(report.mergedFacts == 2)
            #expect(report.topicMergeClusters.count == 1)
            #expect(report.factClusters.count == 1)
            let named = report.allClusters.reduce(0) { $0 + $1.duplicates.count }
            #expect(named == report.mergedFacts)
            let tea = try #require(report.topicMergeClusters.first)
            #expect(
                Set([tea.survivor.content] + tea.duplicates.map(\.content))
                    == ["I prefer tea to coffee", "Prefers tea over coffee"])
        }
    }

    @Test func aDedupeReportsJSONKeepsItsTotalsAndAddsTheClusters() async throws {
        let kb = try await Self.knowledgeBase()
        let report = try await kb.dedupe(dryRun: true)
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        #expect(json["mergedFacts"] as? Int == 2)
        #expect(json["topicMergedFacts"] as? Int == 1)
        #expect((json["topicMergeClusters"] as? [Any])?.count == 1)
        #expect(try JSONDecoder().decode(DedupeReport.self, from: JSONEncoder().encode(report)) == report)
    }

    @Test func aTopicMergeReportListsTheFactsItMerged() async throws {
        let kb = try await Self.knowledgeBase()
        let report = try await kb.mergeTopics(["Cooking and Food"], into: "Food & Cooking")
        #expect(report.mergedFacts == 1)
        #expect(report.factClusters.count == 1)
        #expect(report.factClusters.first?.duplicates.count == 1)
        #expect(report.description.contains("1 duplicate fact merged"))
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        #expect(json["mergedFacts"] as? Int == 1)
        #expect(json["movedFacts"] as? Int == 1)
        #expect(try JSONDecoder().decode(TopicMergeReport.self, from: JSONEncoder().encode(report)) == report)
    }
}
