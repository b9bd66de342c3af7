import Foundation
import Mnemo
import MnemoTestSupport
import Testing

/// SQLite's text binding ends a string at U+0000: a NUL would store another fact than the one
/// given, or let "alice\0x" into alice's memory. Such input is refused with a reason.
@Suite(.storesClosed) struct NULCharacterTests {
    @Test(arguments: Backend.available) func aFactWithNULIsRefused(on backend: Backend) async throws {
        let kb = try await backend.empty()
        await #expect(throws: MnemoError.self) {
            try await kb.addFact(NewFact(content: "Likes\u{0}tea", topicPath: "Food"))
        }
        #expect(try await kb.stats().facts == 0)
    }

    @Test(arguments: Backend.available) func ingestRejectsTheRecordAndKeepsTheOthers(on backend: Backend) async throws {
        let kb = try await backend.empty()
        let lines = #"{"topic": "Food", "content": "\u0000\"x"}"# + "\n" + #"{"topic": "Food", "content": "@"}"# + "\n"
        let report = try await kb.ingest(data: Data(lines.utf8), options: IngestOptions(format: .jsonl))
        #expect(report.added == 1)
        #expect(report.rejected.map(\.code) == [.nulCharacter])
    }

    @Test func aTopicPathWithNULIsRefused() {
        let text = "a\u{0}b/c"
        #expect(throws: MnemoError.self) { try TopicPath(text) }
    }

    @Test func aNamespaceWithNULIsRefused() throws {
        let kb = try KnowledgeBase.inMemory()
        #expect(throws: MnemoError.self) { try kb.inNamespace("alice\u{0}x") }
    }
}
