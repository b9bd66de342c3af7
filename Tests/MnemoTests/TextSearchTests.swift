import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

@Suite("Full-text search", .storesClosed)
struct TextSearchTests {
    static let facts = [
        NewFact(
            content: "Prefers SwiftUI over UIKit for new screens", topicPath: "Technology/iOS Development/SwiftUI",
            type: .preference, importance: .high),
        NewFact(
            content: "Shipped a SwiftUI app to the App Store in March", topicPath: "Technology/iOS Development",
            type: .experience, importance: .medium),
        NewFact(
            content: "Wants to learn Rust ownership properly", topicPath: "Technology/Rust", type: .goal,
            importance: .high),
        NewFact(
            content: "Ran the Porto half marathon in 1:52", topicPath: "Health & Fitness/Running",
            type: .experience, importance: .medium),
        NewFact(
            content: "Goes bouldering twice a week", topicPath: "Health & Fitness/Climbing", type: .fact,
            importance: .low),
        NewFact(
            content: "Cooks a crème brûlée for birthdays", topicPath: "Food & Cooking", type: .fact,
            importance: .negligible),
    ]

    /// The two halves of the ids ranked at once give exactly the ranking of one pass: the same
    /// facts in the same order with the same scores, page by page and under a filter; and a
    /// search that splits answers as one that does not.
    @Test func rankingInHalvesIsTheRankingOfOnePass() async throws {
        let kb = try await FixtureKnowledgeBase.load(embedder: nil)
        let queries = try FixtureKnowledgeBase.queries()
        let texts = (queries.keyword + queries.paraphrase).map(\.query) + ["a", "\"half marathon\" porto"]
        let namespace = kb.namespace
        let highest = try kb.readNow { db in try FactTable.highestID(db) }
        let pages: [(FactFilter, Int, Int)] = [
            (FactFilter(), 10, 0), (FactFilter(), 5, 7), (FactFilter(types: [.preference, .goal]), 10, 0),
        ]
        for text in texts {
            let query = try #require(TextQuery(text))
            for (filter, limit, offset) in pages {
                let whole = try kb.readNow { db in
                    try TextSearcher.ranking(
                        db, namespace: namespace, query: query, filter: filter, limit: limit, offset: offset)
                }
                let halves = try TextSearcher.rankingInHalves(
                    kb.writer, namespace: namespace, query: query, filter: filter, limit: limit, offset: offset,
                    highestID: highest)
                #expect(halves.matches.map(\.id) == whole.matches.map(\.id), "\(text)")
                #expect(halves.matches.map(\.relevance) == whole.matches.map(\.relevance), "\(text)")
                #expect(halves.phraseHits == whole.phraseHits, "\(text)")
            }
            let split = try await kb.textSearch(SearchQuery(text, mode: .text), splitRows: 1)
            let onePass = try await kb.textSearch(SearchQuery(text, mode: .text), splitRows: .max)
            #expect(split == onePass, "\(text)")
        }
    }

    /// With fewer matches than the ranking's depth, every match was ranked in one pass over the
    /// index: no second pass counts them.
    @Test func aSearchWithFewMatchesPassesOverTheIndexOnce() async throws {
        let kb = try await TestKnowledgeBase.with(Self.facts)
        let namespace = kb.namespace
        let (matches, statements) = try await kb.writer.base.read { db in
            let statements = Locked<[String]>([])
            db.trace(options: .statement) { event in
                if case .statement(let statement) = event { statements.withLock { $0.append(statement.sql) } }
            }
            let query = try #require(TextQuery("swiftui marathon"))
            let matches = try TextSearcher.ranking(
                db, namespace: namespace, query: query, filter: FactFilter(), limit: 20, offset: 0
            ).matches
            db.trace(options: [])
            return (matches, statements.withLock { $0 })
        }
        #expect(matches.count == 3)
        #expect(statements.filter { $0.contains("fact_fts MATCH") }.count == 1, "\(statements)")
    }

    /// The ranking counts the rows holding each phrase for its IDF; the word coverage takes those
    /// counts instead of asking the index again, phrase by phrase, and comes to the same figures.
    @Test func theCoverageTakesThePhraseCountsOfTheRanking() async throws {
        let kb = try await TestKnowledgeBase.with(Self.facts)
        let namespace = kb.namespace
        let (phraseHits, given, counted, statements) = try await kb.writer.base.read { db in
            let query = try #require(TextQuery("swiftui marathon rust"))
            let ranking = try TextSearcher.ranking(
                db, namespace: namespace, query: query, filter: FactFilter(), limit: 20, offset: 0)
            let ids = ranking.matches.map(\.id)
            let statements = Locked<[String]>([])
            db.trace(options: .statement) { event in
                if case .statement(let statement) = event { statements.withLock { $0.append(statement.sql) } }
            }
            let given = try TextSearcher.wordCoverage(db, query: query, facts: ids, phraseHits: ranking.phraseHits)
            db.trace(options: [])
            let counted = try TextSearcher.wordCoverage(db, query: query, facts: ids)
            return (ranking.phraseHits, given, counted, statements.withLock { $0 })
        }
        #expect(phraseHits == [2, 1, 1])
        #expect(given == counted)
        #expect(!statements.contains { $0.contains("MATCH") }, "\(statements)")
    }

    @Test(arguments: Backend.available) func bm25RanksTheBestMatchFirst(on backend: Backend) async throws {
        let kb = try await backend.with(Self.facts)
        let hits = try await kb.search("swiftui screens")
        #expect(hits.count == 2)
        #expect(hits[0].fact.content.hasPrefix("Prefers SwiftUI"))
        #expect(hits[0].score > hits[1].score)
        #expect(hits[0].snippet?.contains("[SwiftUI]") == true)
        #expect(hits[0].fact.topicPath == "Technology/iOS Development/SwiftUI")
    }

    /// Each fact's share of the query's word weight is what the index would match in it: stems,
    /// case and diacritics folded, a phrase as a whole, the topic path too; and the shares agree
    /// with asking the index phrase by phrase.
    @Test func wordCoverageOfEachFactIsWhatTheIndexMatches() async throws {
        let kb = try await TestKnowledgeBase.with(Self.facts)
        let ids = try await kb.writer.read { try Int64.fetchAll($0, sql: "SELECT id FROM fact") }
        for text in [
            "swiftui screens", "RUNNING porto marathon", "\"half marathon\" rust", "creme brulee zebra",
            "swift climbing",
        ] {
            let query = try #require(TextQuery(text))
            let coverage = try await kb.writer.read { try TextSearcher.wordCoverage($0, query: query, facts: ids) }
            let expected = try await kb.writer.read { db -> [Int64: Double] in
                let rows = Double(try Int64.fetchOne(db, sql: "SELECT max(id) FROM fact") ?? 0)
                var weights: [Int64: Double] = [:]
                var total = 0.0
                for phrase in query.phrases {
                    let pattern = "\"" + phrase.joined(separator: " ") + "\""
                    let holders = try Int64.fetchAll(
                        db, sql: "SELECT rowid FROM fact_fts WHERE fact_fts MATCH ?", arguments: [pattern])
                    let idf = max(1e-6, log((rows - Double(holders.count) + 0.5) / (Double(holders.count) + 0.5)))
                    total += idf
                    for id in holders { weights[id, default: 0] += idf }
                }
                return weights.mapValues { $0 / total }
            }
            #expect(Set(coverage.facts.keys) == Set(expected.keys), "\(text)")
            for (id, share) in expected { #expect(abs((coverage.facts[id] ?? -1) - share) < 1e-12, "\(text) #\(id)") }
        }
        // "zebra" occurs nowhere: the two dessert words hold their IDF's share, not all of it.
        let dessert = try #require(TextQuery("creme brulee zebra"))
        let coverage = try await kb.writer.read { try TextSearcher.wordCoverage($0, query: dessert, facts: ids) }
        #expect(
            coverage.facts.count == 1 && coverage.facts.values.first! < 1
                && coverage.facts.values.first! == coverage.query)
    }

    @Test(arguments: Backend.available) func stemmingCaseAndDiacriticsAreFolded(on backend: Backend) async throws {
        let kb = try await backend.with(Self.facts)
        #expect(try await kb.search("RUNNING").count == 1) // topic "Running"; content "Ran" is not a stem of it
        #expect(try await kb.search("learning").first?.fact.type == .goal) // learn ~ learning
        #expect(try await kb.search("creme brulee").first?.fact.content.hasPrefix("Cooks") == true)
    }

    @Test(arguments: Backend.available) func topicNamesMatchWithLowerWeightThanContent(on backend: Backend) async throws
    {
        let kb = try await backend.with([
            NewFact(content: "Climbing shoes are La Sportiva", topicPath: "Gear"),
            NewFact(content: "Goes twice a week", topicPath: "Climbing"),
        ])
        let hits = try await kb.search("climbing")
        #expect(hits.map(\.fact.topicPath) == ["Gear", "Climbing"])
    }

    @Test(arguments: Backend.available) func quotedPhrasesMatchAsAWhole(on backend: Backend) async throws {
        let kb = try await backend.with(Self.facts)
        #expect(try await kb.search("\"half marathon\"").count == 1)
        #expect(try await kb.search("\"marathon half\"").isEmpty)
    }

    @Test(arguments: Backend.available) func allTermsMatching(on backend: Backend) async throws {
        let kb = try await backend.with(Self.facts)
        #expect(try await kb.search(SearchQuery("swiftui store", mode: .text)).count == 2)
        #expect(try await kb.search(SearchQuery("swiftui store", mode: .text, matching: .allTerms)).count == 1)
    }

    @Test(arguments: Backend.available) func filters(on backend: Backend) async throws {
        let kb = try await backend.with(Self.facts)
        func ids(_ filter: FactFilter, _ text: String = "swiftui rust marathon bouldering brulee") async throws -> Int {
            try await kb.search(SearchQuery(text, mode: .text, filter: filter)).count
        }
        #expect(try await ids(FactFilter()) == 6)
        #expect(try await ids(FactFilter(types: [.experience])) == 2)
        #expect(try await ids(FactFilter(types: [.goal, .preference])) == 2)
        #expect(try await ids(FactFilter(importances: [.negligible, .low])) == 2)
        #expect(try await ids(FactFilter(minimumImportance: .medium)) == 4)
        #expect(try await ids(FactFilter(topicPath: "technology")) == 3)
        #expect(try await ids(FactFilter(topicPath: "Technology/iOS Development")) == 2)
        #expect(try await ids(FactFilter(types: [.experience], topicPath: "Health & Fitness")) == 1)
    }

    @Test(arguments: Backend.available) func limitAndOffsetPage(on backend: Backend) async throws {
        let kb = try await backend.with(
            (1...30).map { NewFact(content: "Note \($0) about tea", topicPath: "Tea") })
        let page1 = try await kb.search(SearchQuery("tea", mode: .text, limit: 10))
        let page3 = try await kb.search(SearchQuery("tea", mode: .text, limit: 10, offset: 20))
        let past = try await kb.search(SearchQuery("tea", mode: .text, limit: 10, offset: 30))
        #expect(page1.count == 10)
        #expect(page3.count == 10)
        #expect(past.isEmpty)
        #expect(Set(page1.map(\.fact.id)).isDisjoint(with: page3.map(\.fact.id)))
    }

    static let hostileQueries = [
        "\"", "\"\"", "\"unbalanced quote", "swift*", "*", "-swiftui", "^swiftui", "content:swiftui",
        "topic:rust", "NEAR(swiftui rust)", "swiftui AND", "OR", "AND OR NOT", "NOT swiftui",
        "(swiftui", "swiftui)", "{content topic}: rust", "a:b:c", "💪🏽🏃‍♀️", "مرحبا بالعالم", "שלום",
        "\u{0}", "\u{1}\u{2}\u{7f}", "", "   ", "\n\t", "'; DROP TABLE fact; --", "%_\\",
        "swiftui\u{0}rust", "+", "::", "\u{200B}", "NEAR/2", "rust\"s", "\"swiftui\" OR \"",
        "\u{0301} swiftui", "rust \u{0301}\u{0302} swiftui \"\u{0301}\"",
    ]

    @Test(arguments: hostileQueries)
    func hostileQueriesNeverFail(_ text: String) async throws {
        let kb = try await TestKnowledgeBase.with(Self.facts)
        for matching in TextQuery.Matching.allCases {
            let hits = try await kb.search(SearchQuery(text, mode: .text, matching: matching))
            #expect(hits.count <= 6)
        }
    }

    @Test(arguments: Backend.available) func operatorsAreSearchedAsWords(on backend: Backend) async throws {
        let kb = try await backend.with(Self.facts)
        // "NOT swiftui" must not exclude SwiftUI facts: NOT is a plain (unmatched) word here.
        #expect(try await kb.search("NOT swiftui").count == 2)
        #expect(try await kb.search("-swiftui").count == 2)
        #expect(try await kb.search("content:rust").first?.fact.type == .goal)
        #expect(try await kb.search("💪🏽").isEmpty)
        #expect(try await kb.search("").isEmpty)
    }

    @Test(arguments: Backend.available) func stopWordsAreDroppedUnlessNothingElseIsLeft(on backend: Backend)
        async throws
    {
        #expect(TextQuery("What do I like to code with?")?.phrases == [["like"], ["code"]])
        #expect(TextQuery("the who")?.phrases == [["the"], ["who"]])
        #expect(TextQuery("\"the who\" live")?.phrases == [["the", "who"], ["live"]])
        let kb = try await backend.with([
            NewFact(content: "I like my coffee black", topicPath: "Food"),
            NewFact(content: "Prefers SwiftUI for the code he writes", topicPath: "Tech"),
        ])
        // The coffee fact shares only "I" and "my" with the question: it must not come back.
        #expect(try await kb.search("what do I code with in my job?").map(\.fact.topicPath) == ["Tech"])
    }

    @Test func queryParsing() {
        #expect(TextQuery("hello \"big world\" sailing")?.phrases == [["hello"], ["big", "world"], ["sailing"]])
        #expect(TextQuery("x\"y")?.pattern == "\"x\" OR \"y\"")
        #expect(TextQuery("🙂 -- !!") == nil)
        #expect(TextQuery("Ünïcödé naïve")?.phrases == [["Ünïcödé"], ["naïve"]])
    }
}
