import MnemoTestSupport
import Testing

@testable import Mnemo

@Suite("Snippets")
struct SnippetMakerTests {
    static func snippet(_ query: String, _ content: String) async throws -> String {
        let kb = try TestKnowledgeBase.empty()
        let textQuery = try #require(TextQuery(query))
        return try await kb.writer.read { db in try SnippetMaker(db, query: textQuery).snippet(content) }
    }

    @Test func marksWordsAsTheIndexMatchesThem() async throws {
        #expect(
            try await Self.snippet("creme brulee", "Cooks a crème brûlée for birthdays.")
                == "Cooks a [crème] [brûlée] for birthdays.")
        #expect(
            try await Self.snippet("RUNNING", "Runs before work; running is how he thinks.")
                == "[Runs] before work; [running] is how he thinks.")
        #expect(try await Self.snippet("swiftui", "Prefers SwiftUI over UIKit") == "Prefers [SwiftUI] over UIKit")
    }

    /// A text search splits each hit's content once for its snippet and the phrases it holds.
    @Test func oneSplitGivesTheSnippetAndThePhrasesHeld() async throws {
        let kb = try TestKnowledgeBase.empty()
        let query = try #require(TextQuery("\"half marathon\" porto swimming"))
        let content = "Ran the Porto half marathon, then a marathon in Lisbon the year after that one."
        let (marking, snippet, held) = try await kb.writer.read { db in
            let maker = try SnippetMaker(db, query: query)
            return (maker.marking(content), maker.snippet(content), maker.heldPhrases(in: content))
        }
        #expect(marking.snippet == snippet)
        #expect(marking.heldPhrases == held)
        #expect(held == [true, true, false])
    }

    /// A connection makes its tokenizer once; another connection has its own.
    @Test func eachConnectionMakesItsTokenizerOnce() async throws {
        let tokenizers = ConnectionTokenizers()
        let first = try TestKnowledgeBase.empty()
        let (a, b) = try await first.writer.read { db in
            (
                ObjectIdentifier(try tokenizers.tokenizer(of: db) as AnyObject),
                ObjectIdentifier(try tokenizers.tokenizer(of: db) as AnyObject)
            )
        }
        #expect(a == b)
        let other = try await TestKnowledgeBase.empty().writer.read { db in
            ObjectIdentifier(try tokenizers.tokenizer(of: db) as AnyObject)
        }
        #expect(other != a)
        #expect(
            try await Self.snippet("marathon", "Ran the Porto half marathon") == "Ran the Porto half [marathon]")
    }

    @Test func phrasesAreMarkedWhole() async throws {
        #expect(
            try await Self.snippet("\"half marathon\" marathon", "Ran the Porto half marathon, then a marathon.")
                == "Ran the Porto [half marathon], then a [marathon].")
        #expect(
            try await Self.snippet("\"marathon half\"", "Ran the Porto half marathon") == "Ran the Porto half marathon")
    }

    @Test func longContentIsCutAroundTheMatches() async throws {
        let words = (1...40).map { "w\($0)" }
        var content = words
        content[25] = "climbing"
        let snippet = try await Self.snippet("climbing", content.joined(separator: " ") + ".")
        #expect(snippet.hasPrefix("…") && snippet.hasSuffix("…"))
        #expect(snippet.contains("[climbing]"))
        #expect(snippet.split(separator: " ").count == SnippetMaker.windowSize)
        // Nothing matched (the topic did): the start of the content.
        let start = try await Self.snippet("gear", content.joined(separator: " "))
        #expect(start == words.prefix(SnippetMaker.windowSize).joined(separator: " ") + "…")
    }

    @Test func theWindowHoldsTheMostMatches() async throws {
        var words = (1...60).map { "w\($0)" }
        words[5] = "rust"
        words[40] = "rust"
        words[44] = "ownership"
        let snippet = try await Self.snippet("rust ownership", words.joined(separator: " "))
        #expect(snippet.contains("[rust]") && snippet.contains("[ownership]"))
        #expect(!snippet.contains("w6 "))
    }
}
