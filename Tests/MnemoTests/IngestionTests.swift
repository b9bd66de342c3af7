import Foundation
import Testing

@testable import Mnemo

/// Formats, mapping rules, duplicates and atomicity of ``KnowledgeBase/ingest(data:options:)``.
@Suite struct IngestionTests {
    let kb: KnowledgeBase

    init() throws {
        kb = try KnowledgeBase.inMemory()
    }

    func ingest(_ text: String, _ options: IngestOptions = IngestOptions()) async throws -> IngestReport {
        try await kb.ingest(data: Data(text.utf8), options: options)
    }

    func allFacts(_ kb: KnowledgeBase? = nil) async throws -> [Fact] {
        try await (kb ?? self.kb).facts(matching: FactFilter(activity: .all), limit: 10_000).sorted { $0.id < $1.id }
    }

    // MARK: Formats

    @Test func jsonlRecordsMapEveryField() async throws {
        let report = try await ingest(
            """
            {"topic": "Health & Fitness/Running", "content": "Ran a half marathon in Porto", "type": "experience", "importance": "medium", "confidence": 0.9, "source": "conv-1", "created_at": "2025-01-15T10:30:00Z"}
            {"content": "Prefers tea", "sources": ["conv-2", "conv-3"], "is_active": false, "mention_count": 3, "updated_at": "2025-02-01T00:00:00.250Z", "created_at": "2025-01-01"}
            """)
        #expect(report.format == .jsonl)
        #expect(report.records == 2 && report.added == 2 && report.rejected.isEmpty)
        let facts = try await allFacts()
        #expect(facts[0].topicPath == "Health & Fitness/Running")
        #expect(facts[0].type == .experience && facts[0].importance == .medium && facts[0].confidence == 0.9)
        #expect(facts[0].sources == ["conv-1"])
        #expect(Timestamp.format(facts[0].createdAt) == "2025-01-15T10:30:00Z")
        #expect(facts[0].updatedAt == facts[0].createdAt)
        // No topic → General; no type → fact; no importance or confidence → medium, confidence 1.
        #expect(facts[1].topicPath == "General" && facts[1].type == .fact)
        #expect(facts[1].importance == .medium && facts[1].confidence == 1)
        #expect(facts[1].sources == ["conv-2", "conv-3"] && !facts[1].isActive && facts[1].mentionCount == 3)
        #expect(Timestamp.format(facts[1].updatedAt) == "2025-02-01T00:00:00.250Z")
    }

    @Test func extractedObjectMapsCategoryTypeAndImportance() async throws {
        let report = try await ingest(
            """
            {"extracted": [
              {"content": "Works as a nurse", "category": "profession", "confidence": 0.95},
              {"content": "Lifts weights twice a week", "category": "health_fitness", "confidence": 0.75},
              {"content": "Likes spicy food", "category": "preferences", "confidence": 0.5},
              {"content": "Wants to learn Rust", "category": "Goal", "confidence": 0.2},
              {"content": "Visited Kyoto", "category": "travel", "type": "experience", "importance": "high", "confidence": 0.1},
              {"content": "Has a cat"}
            ]}
            """)
        #expect(report.format == .extracted && report.added == 6)
        let facts = try await allFacts()
        #expect(facts.map(\.topicPath) == ["Profession", "Health Fitness", "Preferences", "Goal", "Travel", "General"])
        #expect(facts.map(\.type) == [.fact, .fact, .preference, .goal, .experience, .fact])
        #expect(facts.map(\.importance) == [.high, .medium, .low, .negligible, .high, .medium])
        #expect(facts.map(\.confidence) == [0.95, 0.75, 0.5, 0.2, 0.1, 1])
    }

    @Test func extractedBareArrayAndLinesOfRecords() async throws {
        let report = try await ingest(
            """
            [
              {"content": "Lives in Porto", "category": "location"},
              {"content": "Likes jazz", "type": "opinion"},
              {"content": ""}
            ]
            """)
        #expect(report.format == .extracted && report.added == 1)
        #expect(report.rejected.map(\.record) == [2, 3])
        #expect(report.rejected.map(\.line) == [3, 4])
        #expect(report.rejected.map(\.code) == [.unknownType, .emptyContent])
    }

    @Test func topicTreeNestsPathsAndNames() async throws {
        let report = try await ingest(
            """
            {"topics": [
              {"path": "Technology/iOS Development",
               "facts": [{"content": "Prefers SwiftUI over UIKit", "type": "preference", "importance": "high"}],
               "children": [
                 {"name": "SwiftUI", "facts": [{"content": "Uses NavigationStack"}],
                  "children": [{"name": "Animations", "facts": [{"content": "Likes spring animations"}]}]},
                 {"path": "Technology/Testing", "facts": [{"content": "Writes snapshot tests"}]}
               ]},
              {"name": "Health", "facts": [{"content": "Runs on Sundays", "type": "experience"}]},
              {"name": "Bad/Name", "facts": [{"content": "Lost 1"}], "children": [{"name": "Child", "facts": [{"content": "Lost 2"}]}]},
              {"facts": [{"content": "Lost 3"}]}
            ]}
            """)
        #expect(report.format == .topics)
        #expect(report.added == 5)
        let facts = try await allFacts()
        #expect(
            facts.map(\.topicPath) == [
                "Technology/iOS Development", "Technology/iOS Development/SwiftUI",
                "Technology/iOS Development/SwiftUI/Animations", "Technology/Testing", "Health",
            ])
        #expect(facts[0].type == .preference && facts[0].importance == .high)
        // A bad node rejects its facts and its descendants' facts, in document order.
        #expect(report.rejected.map(\.record) == [6, 7, 8])
        #expect(report.rejected.allSatisfy { $0.code == .badTopic })
        #expect(report.rejected.map(\.line) == [10, 10, 11])
    }

    @Test(arguments: [
        (#"{"extracted": []}"#, IngestFormat.extracted),
        (" \n [ ]", .extracted),
        ("\u{FEFF}{\"topics\": []}", .topics),
        (#"{ "topics" : []}"#, .topics),
        (#"{"content": "x"}"#, .jsonl),
        (#"{"version": 1, "topics": []}"#, .jsonl),
        ("", .jsonl),
    ])
    func detectsTheFormatFromTheFirstBytes(text: String, format: IngestFormat) {
        #expect(IngestFormat.detect(Array(text.utf8)) == format)
    }

    @Test func forcedFormatOverridesDetection() async throws {
        let text = #"{"content": "Lives in Porto"}"#
        await #expect(throws: MnemoError.self) {
            try await ingest(text, IngestOptions(format: .topics))
        }
        let report = try await ingest("[\n" + text + "\n]", IngestOptions(format: .extracted))
        #expect(report.added == 1)
    }

    @Test func unreadableDocumentsStoreNothing() async throws {
        for text in [
            "{\"extracted\": [\n{\"content\": \"a\"},\n{oops}\n]}", #"{"topics": {"path": "A"}}"#,
            #"{"topics": [{"path": "A", "facts": "none"}]}"#, #"{"topics": [42]}"#,
        ] {
            await #expect(throws: MnemoError.self) { try await ingest(text) }
        }
        let error = await #expect(throws: MnemoError.self) {
            try await ingest("{\"extracted\": [\n{\"content\": \"a\"},\n{oops}\n]}")
        }
        #expect(error.map { "\($0)" }?.contains("line 3") == true)
        #expect(try await allFacts().isEmpty)
    }

    // MARK: JSONL reading

    @Test func blankLinesCRLFAndAMissingFinalNewline() async throws {
        let report = try await ingest(
            "\n  \r\n{\"content\": \"a\"}\r\n\n\t\n{\"content\": \"b\", \"type\": \"nope\"}\r\n{\"content\": \"c\"}")
        #expect(report.records == 3 && report.added == 2)
        #expect(report.rejected.map(\.line) == [6])
        #expect(report.rejected.map(\.record) == [2])
    }

    @Test func unknownFieldsAreAccepted() async throws {
        let report = try await ingest(
            #"{"content": "Has two kids", "mood": "happy", "meta": {"a": [1, 2]}, "embedding": null}"#)
        #expect(report.added == 1 && report.rejected.isEmpty)
    }

    @Test func longLinesAreSkippedWithoutReadingThem() async throws {
        let long = #"{"content": ""# + String(repeating: "x", count: 5_000) + #""}"#
        let report = try await ingest(
            "\(long)\n{\"content\": \"short\"}\n\(long)", IngestOptions(maximumLineLength: 1_000))
        #expect(report.added == 1)
        #expect(report.rejected.map(\.code) == [.recordTooLong, .recordTooLong])
        #expect(report.rejected.map(\.line) == [1, 3])
    }

    @Test func aFileLargerThanOneChunkStreamsAcrossChunkBoundaries() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mnemo-stream-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        var text = ""
        for index in 1...30_000 {
            text +=
                index == 17_000
                ? "{broken\n"
                : #"{"topic": "T\#(index % 7)", "content": "Fact number \#(index) with some padding to cross a chunk"}"#
                    + "\n"
        }
        try Data(text.utf8).write(to: url)
        #expect(text.utf8.count > 2 * ByteChunks.chunkSize)
        let progress = ProgressLog()
        let report = try await kb.ingest(contentsOf: url, options: IngestOptions(progress: { progress.append($0) }))
        #expect(report.records == 30_000 && report.added == 29_999)
        #expect(report.rejected.map(\.line) == [17_000])
        let updates = progress.updates
        #expect(updates.last?.isFinished == true && updates.last?.bytesRead == text.utf8.count)
        #expect(updates.count >= 6) // one per batch of 5,000, and the last
        #expect(try await kb.stats().facts == 29_999)
    }

    // MARK: Duplicates

    @Test func reingestingTheSameFileChangesOnlyMentionCounts() async throws {
        let text = """
            {"topic": "Food", "content": "Loves sourdough bread.", "source": "conv-1"}
            {"topic": "Food", "content": "Drinks green tea"}
            {"topic": "Music", "content": "loves  SOURDOUGH bread"}
            """
        let first = try await ingest(text)
        #expect(first.added == 2 && first.unchanged == 1)
        let before = try await allFacts()
        let second = try await ingest(text)
        #expect(second.added == 0 && second.merged == 0 && second.unchanged == 3 && second.rejected.isEmpty)
        let after = try await allFacts()
        #expect(after.map(\.id) == before.map(\.id))
        #expect(after.map(\.mentionCount) == before.map { $0.mentionCount + ($0.content.hasPrefix("Loves") ? 2 : 1) })
        #expect(after.map(\.content) == before.map(\.content))
    }

    @Test func duplicatesAcrossAndWithinBatches() async throws {
        let lines = (0..<10).map { #"{"content": "Fact \#($0 % 4)", "source": "s\#($0)"}"# }
        let report = try await ingest(lines.joined(separator: "\n"), IngestOptions(batchSize: 3))
        #expect(report.added == 4 && report.unchanged == 6)
        let facts = try await allFacts()
        #expect(facts.map(\.mentionCount) == [3, 3, 2, 2])
        #expect(facts[0].sources == ["s0", "s4", "s8"])
        let history = try await kb.history(ofFact: facts[0].id)
        #expect(history.map(\.kind) == [.added, .mentioned, .mentioned])
    }

    @Test(arguments: [1, 2, 100])
    func nearDuplicatesAreMergedWithinAndAcrossBatches(batchSize: Int) async throws {
        let kb = try KnowledgeBase.inMemory(embedder: MergeTests.embedder())
        let report = try await kb.ingest(
            data: Data(
                """
                {"content": "I prefer tea to coffee", "type": "preference", "source": "a"}
                {"content": "Ran 10 km on Sunday", "type": "experience"}
                {"content": "Prefers tea over coffee", "type": "preference", "importance": "high", "source": "b"}
                {"content": "On Sunday I did a 10 km run", "type": "experience"}
                {"content": "Ran 21 km on Sunday", "type": "experience"}
                {"content": "i prefer tea to coffee."}
                """.utf8), options: IngestOptions(batchSize: batchSize))
        #expect(report.added == 3 && report.merged == 2 && report.unchanged == 1)
        let facts = try await allFacts(kb)
        #expect(facts.map(\.content) == ["I prefer tea to coffee", "Ran 10 km on Sunday", "Ran 21 km on Sunday"])
        #expect(facts[0].mentionCount == 3 && facts[0].sources == ["a", "b"] && facts[0].importance == .high)
        let strict = try KnowledgeBase.inMemory(embedder: MergeTests.embedder())
        let strictReport = try await strict.ingest(
            data: Data(
                "{\"content\": \"I prefer tea to coffee\", \"type\": \"preference\"}\n{\"content\": \"Prefers tea over coffee\", \"type\": \"preference\"}"
                    .utf8),
            options: IngestOptions(strict: true, batchSize: batchSize))
        #expect(strictReport.added == 1 && strictReport.merged == 1)
    }

    // MARK: Atomicity

    @Test func strictStoresNothingWhenAnyRecordIsRejected() async throws {
        try await kb.addFact(NewFact(content: "Already here", topicPath: "Old"))
        let report = try await ingest(
            """
            {"content": "New one"}
            {"content": "Already here"}
            {"content": "Bad", "confidence": 2}
            """, IngestOptions(strict: true, batchSize: 1))
        #expect(!report.committed && report.added == 0 && report.unchanged == 0)
        #expect(report.rejected.map(\.line) == [3])
        let facts = try await allFacts()
        #expect(facts.map(\.content) == ["Already here"] && facts[0].mentionCount == 1)

        let clean = try await ingest(
            #"{"content": "New one"}"# + "\n" + #"{"content": "Already here"}"#, IngestOptions(strict: true))
        #expect(clean.committed && clean.added == 1 && clean.unchanged == 1)
    }

    @Test func aBadFileNeverChangesWhatIsStored() async throws {
        _ = try await ingest(#"{"content": "Keep me", "topic": "A"}"#)
        let before = try await exportText()
        for text in ["[{\"content\": \"x\"}, oops", #"{"topics": [{"name": 3}]"#] {
            _ = try? await ingest(text)
        }
        _ = try await ingest(
            "{\"content\": \"Keep me\", \"topic\": \"A\"}\n{\"content\": \"y\", \"type\": \"nope\"}",
            IngestOptions(strict: true))
        _ = try await ingest("{\"content\": \"\"}\nnot json\n[]")
        #expect(try await exportText() == before)
    }

    @Test func aDatabaseFailureRollsBackTheBatchAndSaysHowFarItGot() async throws {
        // A trigger stands in for a full disk: it fails the fourth insert.
        try await kb.writer.write { db in
            try db.execute(
                sql: """
                    CREATE TEMP TRIGGER fail_fourth BEFORE INSERT ON fact WHEN (SELECT COUNT(*) FROM fact) >= 3
                    BEGIN SELECT RAISE(ABORT, 'disk full'); END
                    """)
        }
        let lines = (1...6).map { #"{"content": "Fact \#($0)"}"# }.joined(separator: "\n")
        let error = await #expect(throws: MnemoError.self) {
            try await ingest(lines, IngestOptions(batchSize: 2))
        }
        guard case .interrupted(let stored, .storageFailure(let failure)) = error else {
            Issue.record("expected an interruption by a storage failure, got \(String(describing: error))")
            return
        }
        #expect(stored == 2 && failure.message.contains("disk full"))
        #expect(try await allFacts().map(\.content) == ["Fact 1", "Fact 2"])
    }

    // MARK: Namespaces and record sequences

    @Test func namespaceFromTheRecordThenTheOptionThenTheKnowledgeBase() async throws {
        let report = try await ingest(
            """
            {"content": "A", "namespace": "user-1"}
            {"content": "B"}
            {"content": "C", "namespace": "  "}
            """, IngestOptions(defaultNamespace: "user-2", namespacePolicy: .fromRecords))
        #expect(report.added == 2 && report.rejected.map(\.code) == [.wrongFieldType])
        #expect(try await kb.inNamespace("user-1").facts().map(\.content) == ["A"])
        #expect(try await kb.inNamespace("user-2").facts().map(\.content) == ["B"])
        _ = try await ingest(#"{"content": "D"}"#)
        #expect(try await kb.facts().map(\.content) == ["D"])
        // The same content in two namespaces is two facts.
        let again = try await ingest(#"{"content": "A"}"#)
        #expect(again.added == 1)
    }

    @Test func recordsFromAnAsyncSequence() async throws {
        let records = AsyncStream<IngestRecord> { continuation in
            continuation.yield(IngestRecord(content: "Drinks coffee", category: "preference", confidence: 0.8))
            continuation.yield(IngestRecord(content: "  "))
            continuation.yield(IngestRecord(content: "Climbs", topic: "Hobbies//Climbing"))
            continuation.yield(IngestRecord(content: "Runs", confidence: 1.5))
            continuation.yield(IngestRecord(content: "drinks coffee!"))
            continuation.finish()
        }
        let report = try await kb.ingest(records: records)
        #expect(report.added == 1 && report.unchanged == 1)
        #expect(report.rejected.map(\.record) == [2, 3, 4])
        #expect(report.rejected.map(\.line) == [nil, nil, nil])
        #expect(report.rejected.map(\.code) == [.emptyContent, .badTopic, .confidenceOutOfRange])
        let fact = try #require(try await allFacts().first)
        #expect(fact.topicPath == "Preference" && fact.type == .preference && fact.importance == .medium)
    }

    @Test func exportedIDsAreReusedOnlyWhenFree() async throws {
        _ = try await ingest(#"{"id": 40, "content": "Forty"}"# + "\n" + #"{"content": "Next"}"#)
        _ = try await ingest(#"{"id": 40, "content": "Another forty"}"# + "\n" + #"{"id": 7, "content": "Seven"}"#)
        #expect(try await allFacts().map(\.id) == [7, 40, 41, 42])
        let deleted = try #require(try await allFacts().last)
        try await kb.deleteFact(id: deleted.id)
        _ = try await ingest(#"{"id": 42, "content": "Reborn"}"#)
        // Id 42 has history: neither the record nor a new fact takes it.
        #expect(try await allFacts().map(\.id) == [7, 40, 41, 43])
    }

    func exportText() async throws -> [String] {
        var lines: [String] = []
        for try await line in kb.exportedLines(allNamespaces: true) { lines.append(line) }
        return lines
    }
}

/// Collects progress reports from the ingesting task.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var log: [IngestProgress] = []

    func append(_ progress: IngestProgress) {
        lock.withLock { log.append(progress) }
    }

    var updates: [IngestProgress] { lock.withLock { log } }
}
