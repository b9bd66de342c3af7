import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// Every rejection reason, with the line it is reported on, and the good records around it.
@Suite(.storesClosed) struct IngestionRejectionTests {
    static let cases: [(line: String, code: IngestRejection.Code, reason: String)] = [
        ("{\"content\": \"x\"", .invalidJSON, "invalid JSON"),
        ("[\"content\", \"x\"]", .notAnObject, "expected a JSON object, got array"),
        ("\"just text\"", .notAnObject, "expected a JSON object, got string"),
        (#"{"topic": "Food"}"#, .missingContent, #"missing "content""#),
        (#"{"content": "x", "type": "goal", "status": "done"}"#, .unknownStatus, "expected active, paused"),
        (#"{"content": "x", "type": "goal", "progress": 1.2}"#, .progressOutOfRange, "from 0 to 1, got number 1.2"),
        (#"{"content": "x", "status": "active"}"#, .notAGoal, "only a goal has a status; this record is a fact"),
        (#"{"content": null}"#, .missingContent, #"missing "content""#),
        (#"{"content": " \t "}"#, .emptyContent, #""content" is empty"#),
        (#"{"content": "a\u0000b"}"#, .nulCharacter, "content has a NUL character (U+0000)"),
        (
            #"{"content": "\#(String(repeating: "é", count: 4_097))"}"#, .contentTooLong,
            "content has 4097 characters; the maximum is 4096"
        ),
        (#"{"content": ["a"]}"#, .wrongFieldType, #""content" must be a string, got array"#),
        (#"{"content": "x", "topic": 42}"#, .wrongFieldType, #""topic" must be a string, got number 42"#),
        (#"{"content": "x", "sources": "conv-1"}"#, .wrongFieldType, #""sources" must be an array of strings"#),
        (#"{"content": "x", "is_active": "yes"}"#, .wrongFieldType, #""is_active" must be true or false"#),
        (#"{"content": "x", "mention_count": 1.5}"#, .wrongFieldType, #""mention_count" must be an integer"#),
        (#"{"content": "x", "mention_count": 0}"#, .wrongFieldType, #""mention_count" must be a positive integer"#),
        (#"{"content": "x", "id": true}"#, .wrongFieldType, #""id" must be an integer, got boolean true"#),
        (
            #"{"content": "x", "type": "opinion"}"#, .unknownType,
            #"unknown type "opinion" (expected fact, preference, goal or experience)"#
        ),
        (
            #"{"content": "x", "importance": "urgent"}"#, .unknownImportance,
            #"unknown importance "urgent" (expected none, low, medium or high)"#
        ),
        (#"{"content": "x", "confidence": 1.01}"#, .confidenceOutOfRange, "confidence 1.01 is outside 0…1"),
        (#"{"content": "x", "confidence": -0.5}"#, .confidenceOutOfRange, "confidence -0.5 is outside 0…1"),
        (
            #"{"content": "x", "confidence": "high"}"#, .confidenceNotNumber,
            #"confidence must be a number from 0 to 1, got string "high""#
        ),
        (#"{"content": "x", "confidence": true}"#, .confidenceNotNumber, "got boolean true"),
        (#"{"content": "x", "created_at": "yesterday"}"#, .badDate, #"bad date "yesterday" in "created_at""#),
        (
            #"{"content": "x", "updated_at": "2025-13-01T00:00:00Z"}"#, .badDate,
            #"bad date "2025-13-01T00:00:00Z" in "updated_at""#
        ),
        (
            #"{"content": "x", "created_at": "2025-02-01T00:00:00Z", "updated_at": "2025-01-01T00:00:00Z"}"#, .badDate,
            "updated_at 2025-01-01T00:00:00Z is before created_at 2025-02-01T00:00:00Z"
        ),
        (#"{"content": "x", "created_at": 1736937000}"#, .wrongFieldType, #""created_at" must be a string"#),
        (#"{"content": "x", "topic": ""}"#, .badTopic, #"bad topic "": the path is empty"#),
        (#"{"content": "x", "topic": "a//b"}"#, .badTopic, #"bad topic "a//b": it has an empty segment"#),
        (#"{"content": "x", "topic": "/"}"#, .badTopic, #"bad topic "/": the path is empty"#),
        (#"{"content": "x", "topic": "Food/"}"#, .badTopic, "it has an empty segment"),
        (#"{"content": "x", "category": "  "}"#, .badTopic, #"bad category "  ": the path is empty"#),
    ]

    @Test(arguments: cases)
    func rejectsWithTheCodeLineAndReason(line: String, code: IngestRejection.Code, reason: String) async throws {
        let kb = try KnowledgeBase.inMemory()
        let text = """
            {"content": "Good before", "topic": "Test"}

            \(line)
            {"content": "Good after", "topic": "Test"}
            """
        let report = try await kb.ingest(data: Data(text.utf8))
        #expect(report.added == 2)
        let rejection = try #require(report.rejected.first)
        #expect(report.rejected.count == 1)
        #expect(rejection.code == code)
        #expect(rejection.line == 3)
        #expect(rejection.record == 2)
        #expect(rejection.reason.contains(reason), "\(rejection.reason)")
        #expect(rejection.description.hasPrefix("line 3: "))
    }

    @Test(arguments: Backend.available) func invalidUTF8IsRejectedPerLine(on backend: Backend) async throws {
        let kb = try await backend.empty()
        var bytes = Data(#"{"content": "Good"}"#.utf8 + [0x0A])
        bytes += Data(#"{"content": "Bad "#.utf8) + Data([0xC3, 0x28]) + Data(#""}"#.utf8 + [0x0A])
        bytes += Data(#"{"content": "Café ☕️ 🇵🇹"}"#.utf8)
        let report = try await kb.ingest(data: bytes)
        #expect(report.added == 2)
        #expect(report.rejected.map(\.code) == [.invalidUTF8])
        #expect(report.rejected.map(\.line) == [2])
    }

    @Test func everyCodeIsCovered() {
        // Foreign namespaces are tested by NamespacePinningTests, quotas by QuotaTests.
        let tested = Set(Self.cases.map(\.code)).union([
            .invalidUTF8, .recordTooLong, .foreignNamespace, .quotaExceeded,
        ])
        #expect(tested == Set(IngestRejection.Code.allCases))
    }

    @Test(arguments: Backend.available) func rejectionsBeyondTheLimitAreCountedNotKept(on backend: Backend) async throws
    {
        let kb = try await backend.empty()
        let text = (0..<50).map { _ in "nope" }.joined(separator: "\n")
        let report = try await kb.ingest(data: Data(text.utf8), options: IngestOptions(maximumReportedRejections: 10))
        #expect(report.rejected.count == 10 && report.rejectedCount == 50 && report.added == 0)
    }
}
