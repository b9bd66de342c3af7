import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo
@testable import MnemoCLI

/// One vocabulary for filters: the same wrong value gets the same message from the library's
/// parser, a REPL inline filter and a CLI option (the HTTP and MCP doors are checked in
/// `OneVocabularyTests` of the server tests).
@Suite("Filter vocabulary")
struct FilterVocabularyTests {
    private func message(_ field: FilterField, _ value: String) -> String? {
        var parameters = SearchParameters()
        do {
            try parameters.set(field, to: value)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func validValuesComeFromTheEnums() {
        #expect(FilterField.type.valueWords == FactType.allCases.map(\.rawValue))
        #expect(FilterField.importance.valueWords == Importance.allCases.map(\.rawValue))
        #expect(FilterField.mode.valueWords == SearchMode.allCases.map(\.rawValue))
        #expect(FilterField.type.valueHelp.hasPrefix("fact, preference, goal or experience"))
    }

    @Test func aWrongValueSaysWhatTheFieldTakesWithAGuess() throws {
        let wrong = try #require(message(.type, "opinion"))
        #expect(
            wrong == #"unknown type "opinion" (expected fact, preference, goal or experience; several with commas)"#)
        #expect(message(.type, "gaol")?.hasSuffix("did you mean goal?") == true)
        #expect(message(.importance, "urgent")?.hasPrefix(#"unknown importance "urgent""#) == true)
        #expect(message(.mode, "fuzzy") == #"unknown mode "fuzzy" (expected text, semantic or hybrid)"#)
        #expect(message(.limit, "0") == #"limit takes a whole number from 1 to 1000, not "0""#)
        #expect(message(.topic, "a//b") == #"topic is not a topic path: "a//b": it has an empty segment"#)
    }

    @Test func theREPLSaysTheSame() throws {
        for (field, name, value) in [
            (FilterField.type, "type", "opinion"), (.mode, "mode", "fuzzy"), (.active, "active", "al"),
        ] {
            #expect(throws: InlineQueryError(try #require(message(field, value)))) {
                try InlineQuery(parsing: "x \(name):\(value)")
            }
        }
    }

    @Test func theCommandLineSaysTheSame() throws {
        let expected = try #require(message(.type, "opinion"))
        let result = try CLIRunner.run([
            "search", "x", "--type", "opinion", "--db", try TestKnowledgeBase.temporaryPath(),
        ])
        #expect(result.status != 0)
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        let update = try CLIRunner.run([
            "fact", "update", "1", "--type", "opinion", "--db", try TestKnowledgeBase.temporaryPath(),
        ])
        #expect(
            update.stderr.contains(#"unknown type "opinion" (expected fact, preference, goal or experience"#),
            "\(update.stderr)")
    }

    @Test func importanceComparisons() throws {
        var parameters = SearchParameters()
        try parameters.set(.importance, to: ">=medium")
        #expect(parameters.filter.minimumImportance == .medium)
        try parameters.set(.importance, to: "<low")
        #expect(parameters.filter.importances == [.negligible])
        #expect(message(.importance, ">high")?.contains("nothing is more important than high") == true)
        #expect(message(.importance, ">=low,high")?.contains(">= takes one importance") == true)
    }

    @Test func aFactEditNamesWhatItCanChange() {
        var edit = FactEdit()
        #expect(throws: FilterValueError.self) { try edit.requireChange() }
        #expect(throws: FilterValueError.self) { try edit.setConfidence(2) }
        #expect(throws: FilterValueError.self) { try edit.setContent("   ") }
        #expect(throws: Never.self) { try edit.setType("Goal") }
        #expect(edit.update.type == .goal)
    }
}

/// One JSON vocabulary: each shape has the keys every front door has written.
@Suite("JSON vocabulary")
struct JSONVocabularyTests {
    private func keys(_ value: some Encodable) throws -> Set<String> {
        let data = try JSONEncoder.mnemoOutput(pretty: false).encode(value)
        return Set(try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]).keys)
    }

    private func fact() async throws -> (KnowledgeBase, Fact) {
        let kb = try KnowledgeBase.inMemory()
        let fact = try await kb.addFact(
            NewFact(content: "Prefers SwiftUI over UIKit", topicPath: "Technology/iOS", type: .preference)
        ).fact
        return (kb, fact)
    }

    @Test func aFactHasEveryKeyTheCLIServerAndToolsWrote() async throws {
        let (_, fact) = try await fact()
        #expect(
            try keys(FactJSON(fact)) == [
                "id", "uid", "content", "topic", "topic_id", "type", "importance", "confidence", "is_active", "sources",
                "mention_count", "created_at", "updated_at",
            ])
    }

    /// Each field an edit may set (``FactField``, the one list) is written by every JSON form of
    /// a fact: the front doors' and sync's; the edit and sync's field names are that list.
    @Test func everyEditableFieldReachesEachJSONForm() async throws {
        let kb = try KnowledgeBase.inMemory()
        let goal = try await kb.addFact(
            NewFact(
                content: "Run a marathon", topicPath: "Health", type: .goal, expiresAt: Date(timeIntervalSinceNow: 9e6),
                status: .active, progress: 0.25, targetDate: Date(timeIntervalSinceNow: 8e6))
        ).fact
        let names = Set(FactField.allCases.map(\.rawValue))
        #expect(names.subtracting(try keys(FactJSON(goal))) == [])
        #expect(names.subtracting(try keys(SyncFact(goal))) == [])
        #expect(Set(FactEdit.fields) == names)
        #expect(SyncFact.fieldNames == names)
    }

    @Test func aHitIsTheFactWithItsScores() async throws {
        let (kb, _) = try await fact()
        let hit = try #require(try await kb.search(SearchQuery("swiftui", mode: .text)).first)
        let hitKeys = try keys(SearchHitJSON(hit))
        #expect(
            hitKeys.isSuperset(of: [
                "id", "uid", "content", "topic", "type", "importance", "confidence", "is_active", "score",
                "text_score", "snippet", "conflicts_with", "topic_id", "created_at",
            ]))
        #expect(!hitKeys.contains("similarity"), "a text hit has no similarity")
    }

    @Test func aTopicDetailKeepsEachDoorsChildren() async throws {
        let (kb, _) = try await fact()
        let detail = try await kb.topicDetail(at: "Technology", limit: 10)
        let encoder = JSONEncoder.mnemoOutput(pretty: false)
        let objects =
            try JSONSerialization.jsonObject(with: encoder.encode(TopicDetailJSON(detail.node, facts: detail.facts)))
            as? [String: Any]
        let paths =
            try JSONSerialization.jsonObject(
                with: encoder.encode(TopicDetailJSON(detail.node, facts: detail.facts, children: .paths)))
            as? [String: Any]
        #expect((objects?["children"] as? [[String: Any]])?.first?["path"] as? String == "Technology/iOS")
        #expect(paths?["children"] as? [String] == ["Technology/iOS"])
        #expect(paths?["subtopics"] as? [String] == ["Technology/iOS"])
        #expect((paths?["facts"] as? [Any])?.count == 1)
    }
}
