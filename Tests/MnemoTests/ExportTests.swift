import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// The JSONL export, and that `ingest` reads it back losslessly.
@Suite(.storesClosed) struct ExportTests {
    /// A knowledge base with a bit of everything an export must carry.
    static func populated() async throws -> KnowledgeBase {
        let kb = try KnowledgeBase.inMemory()
        _ = try await kb.ingest(
            data: Data(
                """
                {"topic": "Health & Fitness/Running", "content": "Ran a half marathon in 1:58", "type": "experience", "importance": "high", "confidence": 0.93, "source": "conv-1", "created_at": "2025-01-15T10:30:00.123Z"}
                {"topic": "Café/Crème", "content": "Says \\"hi\\"\\nthen\\tleaves \\\\ early — ☕️", "confidence": 0.333333333333, "sources": ["a", "b"]}
                {"topic": "Technology/iOS Development", "content": "Prefers SwiftUI over UIKit", "type": "preference", "namespace": "user-2"}
                {"topic": "Technology/iOS Development", "content": "Uses Xcode 16", "created_at": "2024-12-31T23:59:59.999Z"}
                {"topic": "Technology/iOS Development", "content": "uses xcode 16.", "source": "conv-9"}
                """.utf8), options: IngestOptions(namespacePolicy: .fromRecords))
        let facts = try await kb.facts(matching: FactFilter(activity: .all))
        let xcode = try #require(facts.first { $0.content == "Uses Xcode 16" })
        try await kb.deactivateFact(id: xcode.id)
        let running = try #require(facts.first { $0.content.hasPrefix("Ran") })
        try await kb.updateFact(id: running.id, FactUpdate(importance: .medium))
        try await kb.deleteFact(id: try #require(facts.first { $0.content.hasPrefix("Says") }).id)
        try await kb.addFact(NewFact(content: "Says hi again", topicPath: "Café/Crème", sources: ["c"]))
        return kb
    }

    static func export(_ kb: KnowledgeBase, allNamespaces: Bool = true) async throws -> Data {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mnemo-export-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        try await kb.export(to: url, allNamespaces: allNamespaces)
        return try Data(contentsOf: url)
    }

    @Test(arguments: Backend.available) func exportThenIngestIntoAnEmptyDatabaseThenExportGivesTheSameBytes(
        on backend: Backend
    ) async throws {
        let original = try await Self.export(Self.populated())
        let restored = try await backend.empty()
        let report = try await restored.ingest(data: original, options: IngestOptions(namespacePolicy: .fromRecords))
        #expect(report.rejected.isEmpty && report.added == 4)
        let again = try await Self.export(restored)
        #expect(String(decoding: again, as: UTF8.self) == String(decoding: original, as: UTF8.self))
    }

    @Test func exportedLinesCarryEveryFieldInAFixedOrder() async throws {
        let kb = try await Self.populated()
        var lines: [String] = []
        for try await line in kb.exportedLines(allNamespaces: true) { lines.append(line) }
        #expect(lines.count == 4)
        // The uid is made when the fact is first written: random, in its fixed place.
        let uid = try #require(try await kb.fact(id: 1)).uid
        #expect(UUID(uuidString: uid) != nil)
        #expect(
            lines[0].hasPrefix(
                #"{"id":1,"uid":""# + uid
                    + #"","namespace":"default","topic":"Health & Fitness/Running","content":"Ran a half marathon in 1:58","type":"experience","importance":"medium","confidence":0.93,"is_active":true,"sources":["conv-1"],"mention_count":1,"created_at":"2025-01-15T10:30:00.123Z","updated_at":""#
            ))
        #expect(lines[2].contains(#""content":"Uses Xcode 16","#) && lines[2].contains(#""is_active":false"#))
        #expect(lines[2].contains(#""sources":["conv-9"],"mention_count":2,"created_at":"2024-12-31T23:59:59.999Z""#))
        #expect(lines[1].contains(#""namespace":"user-2""#))
        #expect(lines[3].contains(#""id":5,"#) && lines[3].contains(#""topic":"Café/Crème""#))
        let file = try await Self.export(kb)
        #expect(String(decoding: file, as: UTF8.self) == lines.map { $0 + "\n" }.joined())
    }

    @Test(arguments: Backend.available) func quotesAndControlCharactersSurviveTheRoundTrip(on backend: Backend)
        async throws
    {
        let kb = try await backend.empty()
        let content = "Says \"hi\"\nthen\tleaves \\ early \u{1} — ☕️"
        try await kb.addFact(NewFact(content: content, topicPath: "Odd/Chars", sources: ["x\"y"]))
        let export = try await Self.export(kb)
        #expect(String(decoding: export, as: UTF8.self).contains(#"\"hi\"\nthen\tleaves \\ early \u0001"#))
        let restored = try await backend.empty()
        _ = try await restored.ingest(data: export)
        let fact = try #require(try await restored.fact(id: 1))
        #expect(fact.content == content && fact.sources == ["x\"y"] && fact.topicPath == "Odd/Chars")
    }

    @Test func exportsOneNamespaceUnlessAskedForAll() async throws {
        let kb = try await Self.populated()
        let own = String(decoding: try await Self.export(kb, allNamespaces: false), as: UTF8.self)
        #expect(own.split(separator: "\n").count == 3 && !own.contains("user-2"))
        let other = String(
            decoding: try await Self.export(kb.inNamespace("user-2"), allNamespaces: false), as: UTF8.self)
        #expect(other.split(separator: "\n").count == 1)
    }

    @Test func ingestingAnExportIntoItsOwnDatabaseOnlyCountsMentions() async throws {
        let kb = try await Self.populated()
        let export = try await Self.export(kb)
        let report = try await kb.ingest(data: export, options: IngestOptions(namespacePolicy: .fromRecords))
        #expect(report.added == 0 && report.unchanged == 4)
        let facts = try await kb.facts(matching: FactFilter(activity: .all))
        #expect(facts.count == 3)
    }

    @Test func exportToAFileReplacesItWhole() async throws {
        let kb = try await Self.populated()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mnemo-replace-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data("old content that is longer than nothing\n".utf8).write(to: url)
        let count = try await kb.export(to: url, allNamespaces: true)
        #expect(count == 4)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(!text.contains("old content") && text.split(separator: "\n").count == 4)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            .filter { $0.contains(url.lastPathComponent) && $0.hasSuffix(".partial") }
        #expect(leftovers.isEmpty)
    }
}
