import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

/// A query of several common words is ranked among the rows holding two of them, and gives
/// exactly the page of ranking every match.
@Suite("Text ranking among the rows with two of the words", .storesClosed)
struct TextNarrowingTests {
    /// Facts of 4 to 11 words from a small vocabulary: "alpha", "beta" and "gamma" are each in
    /// about a third of the facts, the rest in fewer; one short fact holds "zeta" alone.
    static func facts() -> [NewFact] {
        var generator = SplitMix(seed: 7)
        let common = ["alpha", "beta", "gamma"]
        let rarer = (0..<60).map { "w\($0)" }
        var facts: [NewFact] = []
        var seen = Set<String>()
        while facts.count < 1_500 {
            let length = 4 + generator.below(8)
            let words = (0..<length).map { _ in
                generator.below(9) == 0 ? common[generator.below(3)] : rarer[generator.below(60)]
            }
            let content = words.joined(separator: " ")
            guard seen.insert(content).inserted else { continue }
            facts.append(
                NewFact(
                    content: content, topicPath: facts.count % 4 == 0 ? "Alpha/Notes" : "Misc",
                    type: facts.count % 3 == 0 ? .preference : .fact))
        }
        facts.append(NewFact(content: "zeta", topicPath: "Misc"))
        return facts
    }

    /// Whether the statements (with their arguments) ranked the query's plain OR: every match.
    static func rankedEveryMatch(_ statements: [String], _ query: TextQuery) -> Bool {
        statements.contains { $0.contains(query.pattern) }
    }

    /// A page two ways: narrowed at any size, with the statements it ran (and their arguments),
    /// and ranking every match.
    static func rankBothWays(
        _ kb: KnowledgeBase, _ query: TextQuery, filter: FactFilter = FactFilter(), limit: Int, offset: Int = 0
    ) async throws -> (narrowed: TextSearcher.Ranking, every: TextSearcher.Ranking, statements: [String]) {
        let namespace = kb.namespace
        return try await kb.writer.base.read { db in
            let statements = Locked<[String]>([])
            db.trace(options: .statement) { event in
                if case .statement(let statement) = event { statements.withLock { $0.append(statement.expandedSQL) } }
            }
            let narrowed = try TextSearcher.ranking(
                db, namespace: namespace, query: query, filter: filter, limit: limit, offset: offset, narrowingRows: 0)
            db.trace(options: [])
            let every = try TextSearcher.ranking(
                db, namespace: namespace, query: query, filter: filter, limit: limit, offset: offset,
                narrowingRows: .max)
            return (narrowed, every, statements.withLock { $0 })
        }
    }

    /// Expects the same page, scores and phrase counts both ways.
    static func expectSamePage(
        _ pages: (narrowed: TextSearcher.Ranking, every: TextSearcher.Ranking, statements: [String]),
        _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            pages.narrowed.matches.map(\.id) == pages.every.matches.map(\.id), comment, sourceLocation: sourceLocation)
        #expect(
            pages.narrowed.matches.map(\.relevance) == pages.every.matches.map(\.relevance), comment,
            sourceLocation: sourceLocation)
        #expect(pages.narrowed.phraseHits == pages.every.phraseHits, comment, sourceLocation: sourceLocation)
    }

    @Test func theRowsWithTwoWordsGiveThePageOfEveryMatch() async throws {
        let kb = try await TestKnowledgeBase.with(Self.facts())
        let pages: [(FactFilter, Int, Int)] = [
            (FactFilter(), 10, 0), (FactFilter(), 5, 7), (FactFilter(types: [.preference]), 10, 0),
            (FactFilter(topicPath: "Alpha"), 3, 0), (FactFilter(), 400, 0),
        ]
        let texts = [
            "alpha beta", "beta gamma alpha", "alpha w3", "w1 w2 w3 w4", "alpha zeta", "gamma \"w5 w6\"",
            "alpha \u{0301} beta",
        ]
        var narrowed = 0
        for text in texts {
            let query = try #require(TextQuery(text))
            for (filter, limit, offset) in pages {
                let both = try await Self.rankBothWays(kb, query, filter: filter, limit: limit, offset: offset)
                Self.expectSamePage(both, "\(text) \(filter) \(limit)")
                if !Self.rankedEveryMatch(both.statements, query) { narrowed += 1 }
                // The common words' rows are too many for a page of 400 to leave any out.
                if limit == 400, text == "alpha beta" { #expect(Self.rankedEveryMatch(both.statements, query)) }
            }
        }
        // The common words' pages come from fewer rows than match.
        #expect(narrowed >= 8)
    }

    /// On the fixtures' memories and questions (real English, the stop words left out), pages
    /// of 10 and 50 narrowed equal those of every match.
    @Test func theFixturesQuestionsRankAsEveryMatch() async throws {
        let kb = try await FixtureKnowledgeBase.load(embedder: nil)
        let queries = try FixtureKnowledgeBase.queries()
        for text in (queries.keyword + queries.paraphrase).map(\.query) {
            guard let query = TextQuery(text) else { continue }
            for limit in [10, 50] {
                Self.expectSamePage(try await Self.rankBothWays(kb, query, limit: limit), "\(text)")
            }
        }
    }

    /// A short fact holding one rare word outscores every row with two common ones: its bound
    /// is above the page's last score, so the second step ranks its rows too, and it comes first.
    @Test func aRowWithOneRareWordStillComesFirst() async throws {
        let kb = try await TestKnowledgeBase.with(Self.facts())
        let query = try #require(TextQuery("alpha beta zeta"))
        let both = try await Self.rankBothWays(kb, query, limit: 10)
        Self.expectSamePage(both, "alpha beta zeta")
        let first = try #require(both.narrowed.matches.first)
        let content = try await kb.fact(id: first.id)?.content
        #expect(content == "zeta")
        #expect(both.statements.contains { $0.contains("AND") && $0.contains(#" OR "zeta""#) })
        #expect(!Self.rankedEveryMatch(both.statements, query))
    }

    /// Each phrase's bound is the best score of that phrase alone in any row: the first score
    /// of a query of that one phrase.
    @Test func aPhraseBoundIsItsBestScoreAlone() async throws {
        let facts = Self.facts()
        let kb = try await TestKnowledgeBase.with(facts)
        let twoWords = facts[0].content.split(separator: " ").prefix(2).joined(separator: " ")
        try await kb.writer.read { db in
            let query = try #require(TextQuery("alpha w7 \"\(twoWords)\""))
            let narrowed = try #require(query.narrowed())
            _ = BM25Function.takeCounts(db)
            _ = try Row.fetchAll(
                db,
                sql: "SELECT \(TextSearcher.rankFunction) FROM fact_fts WHERE fact_fts MATCH ? LIMIT 1",
                arguments: [
                    BM25Function.phrasesArgument(query.phrases, narrowedTo: narrowed.phraseMap),
                    narrowed.pattern,
                ])
            let counts = try #require(BM25Function.takeCounts(db))
            let bounds = try #require(counts.singlePhraseBounds)
            for (index, phrase) in query.phrases.enumerated() {
                let pattern = "\"" + phrase.joined(separator: " ") + "\""
                let best = try #require(
                    try Double.fetchOne(
                        db,
                        sql:
                            "SELECT bm25(fact_fts, 1.0, 0.3) AS r FROM fact_fts WHERE fact_fts MATCH ? ORDER BY r LIMIT 1",
                        arguments: [pattern]))
                #expect(bounds[index] == -best, "\(pattern)")
                let hits = try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM fact_fts WHERE fact_fts MATCH ?", arguments: [pattern])
                #expect(counts.phraseHits[index] == hits)
            }
        }
    }

    /// The mapped function scores each of the query's phrases once, however often the
    /// expression names it: a row of the pairs scores as `bm25()` scores it in the plain OR.
    @Test func mappedScoresEqualBM25OfThePlainOR() async throws {
        let kb = try await TestKnowledgeBase.with(Self.facts())
        try await kb.writer.read { db in
            for text in ["alpha beta gamma", "alpha w3", "w1 w2 w3 w4 w5 w6"] {
                let query = try #require(TextQuery(text))
                let narrowed = try #require(query.narrowed())
                let mapped = try Row.fetchAll(
                    db,
                    sql: "SELECT rowid, \(TextSearcher.rankFunction) FROM fact_fts WHERE fact_fts MATCH ?",
                    arguments: [
                        BM25Function.phrasesArgument(query.phrases, narrowedTo: narrowed.phraseMap),
                        narrowed.pattern,
                    ])
                let plain = try Dictionary(
                    uniqueKeysWithValues: Row.fetchAll(
                        db, sql: "SELECT rowid, bm25(fact_fts, 1.0, 0.3) FROM fact_fts WHERE fact_fts MATCH ?",
                        arguments: [query.pattern]
                    ).map { ($0[0] as Int64, $0[1] as Double) })
                #expect(!mapped.isEmpty)
                for row in mapped {
                    #expect(plain[row[0]] == row[1] as Double, "\(text): row \(row[0] as Int64)")
                }
            }
        }
    }

    /// When few rows hold both words, the rare word's rows are ranked (the second step's guess),
    /// and the page is the same as ranking every match.
    @Test func aRareWordsRowsAreRankedWhenFewRowsHoldBoth() async throws {
        let rare = (0..<12).map { index in
            NewFact(content: "rara w\(index) w\(index + 20)" + (index < 2 ? " alpha" : ""), topicPath: "Misc")
        }
        let kb = try await TestKnowledgeBase.with(Self.facts() + rare)
        let query = try #require(TextQuery("alpha rara"))
        let both = try await Self.rankBothWays(kb, query, limit: 10)
        Self.expectSamePage(both, "alpha rara")
        #expect(both.statements.contains { $0.contains("AND") && $0.contains(#" OR "rara""#) })
        #expect(!Self.rankedEveryMatch(both.statements, query))
    }

    @Test func theNarrowedPatternNamesEveryPair() throws {
        let query = try #require(TextQuery("alpha \"big cat\" gamma"))
        let three = try #require(query.narrowed())
        #expect(
            three.pattern
                == #"("alpha" AND "big cat") OR ("alpha" AND "gamma") OR ("big cat" AND "gamma")"#)
        #expect(three.phraseMap == [0, 1, 0, 2, 1, 2])
        let keeping = try #require(query.narrowed(keeping: [2]))
        #expect(keeping.pattern == three.pattern + #" OR "gamma""#)
        #expect(keeping.phraseMap == [0, 1, 0, 2, 1, 2, 2])
        #expect(TextQuery("alpha")?.narrowed() == nil)
        #expect(TextQuery("alpha beta", matching: .allTerms)?.narrowed() == nil)
        #expect(TextQuery("a1 a2 a3 a4 a5 a6")?.narrowed()?.phraseMap.count == 30)
        #expect(TextQuery("a1 a2 a3 a4 a5 a6 a7")?.narrowed() == nil)
    }

    /// A word in four facts of five has a bound near zero; with a rarer word that a short fact
    /// holds twice (so its bound is above the rows with both), the rows holding the rarer one
    /// are ranked (the second step), not the common word's, and the page is the same.
    @Test func aWordInMostFactsIsLeftOut() async throws {
        let facts =
            Self.facts().enumerated().map { index, fact in
                var fact = fact
                if index % 5 != 0 { fact.content += " omni" }
                return fact
            } + [NewFact(content: "w3 again w3", topicPath: "Misc")]
        let kb = try await TestKnowledgeBase.with(facts)
        for text in ["omni w3", "w7 omni w3"] {
            let query = try #require(TextQuery(text))
            for (filter, limit) in [(FactFilter(), 10), (FactFilter(types: [.preference]), 5)] {
                let both = try await Self.rankBothWays(kb, query, filter: filter, limit: limit)
                let statements = both.statements
                Self.expectSamePage(both, "\(text)")
                #expect(!Self.rankedEveryMatch(statements, query), "\(text)")
                // With two words, the second step ranked the rows of the rarer one ("w7 omni w3" has
                // enough rows with "w7" and "w3" for the first).
                if query.phrases.count == 2 {
                    #expect(statements.contains { $0.contains("AND") && $0.contains(#" OR "w3""#) }, "\(text)")
                }
            }
        }
    }
}
