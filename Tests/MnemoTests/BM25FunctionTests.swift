import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

/// `mnemo_bm25` must give exactly FTS5's `bm25()`, also after writes change row sizes it remembered.
@Suite("BM25 with remembered row sizes")
struct BM25FunctionTests {
    /// Checks every row matching `text` scores the same with both functions; returns the row count.
    @discardableResult
    static func compareScores(_ db: Database, _ text: String) throws -> Int {
        let query = try #require(TextQuery(text))
        let phrases = BM25Function.phrasesArgument(query.phrases)
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT rowid, bm25(fact_fts, 1.0, 0.3), \(TextSearcher.rankFunction) FROM fact_fts WHERE fact_fts MATCH ?
                """, arguments: [phrases, query.pattern])
        for row in rows {
            let builtin: Double = row[1]
            let remembered: Double = row[2]
            #expect(builtin == remembered, "\(text): row \(row[0] as Int64) scores \(remembered), bm25() \(builtin)")
        }
        return rows.count
    }

    @Test func scoresEqualFTS5OnEveryFixtureQuery() async throws {
        let kb = try await FixtureKnowledgeBase.load(embedder: nil)
        let queries = try FixtureKnowledgeBase.queries()
        let texts =
            (queries.keyword + queries.paraphrase).map(\.query) + ["\"half marathon\" running", "swift swiftui"]
        // Twice: the first pass reads the row sizes, the second finds them remembered.
        for _ in 0..<2 {
            let matched = try await kb.writer.read { db in try texts.reduce(0) { $0 + (try Self.compareScores(db, $1)) }
            }
            #expect(matched > 500)
        }
    }

    static let facts = [
        NewFact(content: "Goes climbing twice a week", topicPath: "Sport"),
        NewFact(content: "Climbing shoes are La Sportiva", topicPath: "Gear"),
        NewFact(content: "Wants to learn Rust", topicPath: "Technology"),
    ]
    static let longer = "Goes climbing twice a week at the old quarry north of town with friends from work"

    @Test func sizesAreForgottenWhenAnotherConnectionCommits() async throws {
        let kb = try KnowledgeBase(path: TestKnowledgeBase.temporaryPath())
        let first = try await kb.addFacts(Self.facts)[0]
        #expect(try await kb.writer.read { try Self.compareScores($0, "climbing") } == 2)
        _ = try await kb.updateFact(id: first.id, FactUpdate(content: Self.longer))
        #expect(try await kb.writer.read { try Self.compareScores($0, "climbing") } == 2)
        #expect(
            try await kb.search(SearchQuery("climbing", mode: .text)).first?.fact.content.hasPrefix("Climbing shoes")
                == true)
    }

    /// The connection remembers each word's count for its IDF; a fact written with the word,
    /// by another connection or inside the same transaction, is counted in the next query.
    @Test func countsAreForgottenWhenTheIndexChanges() async throws {
        let kb = try await TestKnowledgeBase.with(Self.facts)
        #expect(try await kb.writer.read { try Self.compareScores($0, "climbing rust") } == 3)
        _ = try await kb.addFact(NewFact(content: "Climbing gym on Fridays", topicPath: "Sport"))
        #expect(try await kb.writer.read { try Self.compareScores($0, "climbing rust") } == 4)
        try await kb.writer.write { db in
            #expect(try Self.compareScores(db, "climbing rust") == 4)
            try db.execute(
                sql: "UPDATE fact SET content = ? WHERE content = ?",
                arguments: ["Learns Rust climbing", "Wants to learn Rust"])
            #expect(try Self.compareScores(db, "climbing rust") == 4)
            #expect(try Self.compareScores(db, "climbing") == 4)
        }
    }

    @Test func sizesAreForgottenWhenTheConnectionWritesInsideATransaction() async throws {
        let kb = try await TestKnowledgeBase.with(Self.facts)
        try await kb.writer.write { db in
            try Self.compareScores(db, "climbing")
            try db.execute(
                sql: "UPDATE fact SET content = ? WHERE content LIKE 'Goes climbing%'", arguments: [Self.longer])
            #expect(try Self.compareScores(db, "climbing") == 2)
        }
    }

    /// Enough facts holding one word that ranking them reads more sizes one by one than the
    /// threshold for reading every row's size at once (`RowSizes.minimumMissesBeforeLoading`).
    static func manyFacts(_ count: Int, word: String) -> [NewFact] {
        (0..<count).map { index in
            let filler = (0..<(index % 17)).map { "w\($0)x\(index % 5)" }.joined(separator: " ")
            return NewFact(content: "\(word) number \(index) \(filler)", topicPath: index % 3 == 0 ? "A/B" : "C")
        }
    }

    @Test func sizesReadAllAtOnceScoreAsFTS5() async throws {
        let kb = try await TestKnowledgeBase.with(Self.manyFacts(2_500, word: "zebra"))
        let before = BM25Function.fullSizeReads.withLock { $0 }
        #expect(try await kb.writer.read { try Self.compareScores($0, "zebra") } == 2_500)
        #expect(BM25Function.fullSizeReads.withLock { $0 } > before)
        // Twice: the second pass finds every size in memory.
        #expect(try await kb.writer.read { try Self.compareScores($0, "zebra number") } == 2_500)
        // A write empties the table; the sizes read again afterwards are the new ones.
        let first = try #require(try await kb.search(SearchQuery("zebra", mode: .text, limit: 1)).first)
        _ = try await kb.updateFact(id: first.fact.id, FactUpdate(content: "zebra " + Self.longer))
        let after = BM25Function.fullSizeReads.withLock { $0 }
        #expect(try await kb.writer.read { try Self.compareScores($0, "zebra") } == 2_500)
        #expect(BM25Function.fullSizeReads.withLock { $0 } > after)
    }

    /// Sizes are remembered in a byte; a row of 254 tokens or more is remembered apart.
    @Test func longRowsScoreAsFTS5() async throws {
        let long = (0..<300).map { "w\($0)" }.joined(separator: " ")
        let few = try await TestKnowledgeBase.with(
            Self.facts + [
                NewFact(content: "climbing " + long, topicPath: "Sport"),
                NewFact(content: "climbing " + long + " " + long, topicPath: "Sport"),
            ])
        // Twice: read one by one, then remembered.
        for _ in 0..<2 { #expect(try await few.writer.read { try Self.compareScores($0, "climbing") } == 4) }
        var many = Self.manyFacts(1_500, word: "zebra")
        for index in stride(from: 0, to: many.count, by: 100) { many[index].content += " " + long }
        let kb = try await TestKnowledgeBase.with(many)
        // Twice: the first pass reads every size at once, the second finds them remembered.
        for _ in 0..<2 { #expect(try await kb.writer.read { try Self.compareScores($0, "zebra") } == 1_500) }
    }

    @Test func docsizeVarintsAreSummed() {
        func total(_ bytes: [UInt8]) -> Int32? {
            bytes.withUnsafeBufferPointer { BM25Function.totalSize($0) }
        }
        #expect(total([]) == 0)
        #expect(total([5, 2]) == 7)
        // 300 = 0b10_0101100: 0x82 0x2C.
        #expect(total([0x82, 0x2C, 0x01]) == 301)
        #expect(total([0x81, 0x80, 0x00]) == 16_384)
        // A varint cut short is malformed.
        #expect(total([0x82]) == nil)
    }
}
