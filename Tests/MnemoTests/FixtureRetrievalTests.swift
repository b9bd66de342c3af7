import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo
@testable import MnemoEncoder

/// Retrieval and deduplication over the fixture knowledge base with the real all-MiniLM-L6-v2.
@Suite(
    "Fixture retrieval with MiniLM", .serialized,
    .enabled(if: ModelFixture.shouldRunModelTests, ModelFixture.skipReason))
struct FixtureRetrievalTests {
    /// Recall@10 and MRR@10 of one mode or fusion over one query set.
    struct Score: CustomStringConvertible {
        var recall: Double
        var mrr: Double
        var description: String { String(format: "recall@10 %.3f  MRR@10 %.3f", recall, mrr) }
    }

    /// Loaded once for the suite. A task, not a blocking wait: blocking one of the two threads
    /// the tests run on until the load ends can stall the whole run.
    static let shared = Task<KnowledgeBase, any Error> {
        let encoder = try SentenceEncoder(modelDirectory: ModelFixture.requireModel())
        return try await FixtureKnowledgeBase.load(embedder: encoder)
    }

    static func score(
        _ kb: KnowledgeBase, _ queries: [FixtureKnowledgeBase.Query], mode: SearchMode,
        fusion: HybridFusion = .standard
    ) async throws -> Score {
        var recall = 0.0
        var mrr = 0.0
        for query in queries {
            let hits = try await kb.search(SearchQuery(query.query, mode: mode, limit: 10, fusion: fusion)).map(
                \.fact.content)
            recall += Double(query.expected.filter(hits.contains).count) / Double(query.expected.count)
            if let rank = hits.firstIndex(where: query.expected.contains) { mrr += 1 / Double(rank + 1) }
        }
        return Score(recall: recall / Double(queries.count), mrr: mrr / Double(queries.count))
    }

    @Test func plantedDuplicatesAreMergedAndLookAlikesKept() async throws {
        let kb = try await Self.shared.value
        let stats = try await kb.stats()
        // 349 lines − 6 exact duplicates − 12 paraphrases merged.
        #expect(stats.facts == 331)
        let scores = try JSONDecoder().decode(
            DuplicatePairs.self,
            from: Data(
                contentsOf: ModelFixture.fixtures.appendingPathComponent("duplicates.json")))
        let stored = Set(try await kb.allFacts().map(\.content))
        for pair in scores.distinct {
            #expect(stored.contains(pair[0]) && stored.contains(pair[1]), "\(pair) must both be kept")
        }
        for pair in scores.paraphrases {
            #expect(stored.contains(pair[0]) != stored.contains(pair[1]), "\(pair) must be merged into one")
        }
    }

    @Test func keywordQueriesFindTheirFactsByText() async throws {
        let kb = try await Self.shared.value
        let score = try await Self.score(kb, try FixtureKnowledgeBase.queries().keyword, mode: .text)
        #expect(score.recall >= 0.9, "\(score)")
    }

    @Test func paraphraseQueriesFindTheirFactsByMeaning() async throws {
        let kb = try await Self.shared.value
        let queries = try FixtureKnowledgeBase.queries().paraphrase
        let semantic = try await Self.score(kb, queries, mode: .semantic)
        #expect(semantic.recall >= 0.9, "\(semantic)")
        let text = try await Self.score(kb, queries, mode: .text)
        #expect(text.recall < semantic.recall, "paraphrase queries share no words with their facts")
    }

    /// Hybrid must find what the better single mode finds on both kinds of query, and rank it
    /// nearly as high. The figures of every candidate fusion are printed: they are the evidence
    /// for the default.
    ///
    /// The MRR margin is 0.1, not 0.05: the standard fusion gives the text list a real share
    /// wherever the query's words occur in the memory, which lifts LoCoMo by 0.04 nDCG@10 but
    /// costs the paraphrase set 0.067 MRR against semantic alone (0.743 against 0.810, measured
    /// 2026-11-23; the fusion before it: 0.760). The loss is five questions whose words also
    /// match another fact ("what computer do I code on?" finds "code examples" first, and its
    /// answer drops from 3rd to 10th); every answer stays in the top 10 (recall 1.000), which the
    /// recall expectation holds to 0.02.
    @Test func hybridMatchesTheBetterModeOnBothKindsOfQuery() async throws {
        let kb = try await Self.shared.value
        let queries = try FixtureKnowledgeBase.queries()
        let candidates: [(String, HybridFusion)] = [
            ("rrf k=60", .reciprocalRank(k: 60)),
            ("weighted 0.2/16", .weightedScore(textWeight: 0.2, saturation: 16)),
            ("weighted 0.6/32 (before 2026-11-23)", .weightedScore(textWeight: 0.6, saturation: 32)),
            ("normalized 0.35 (standard)", .standard),
        ]
        for (name, set) in [("keyword", queries.keyword), ("paraphrase", queries.paraphrase)] {
            let text = try await Self.score(kb, set, mode: .text)
            let semantic = try await Self.score(kb, set, mode: .semantic)
            print("fixture \(name): text \(text) | semantic \(semantic)")
            for (label, fusion) in candidates {
                print(
                    "fixture \(name): hybrid \(label) \(try await Self.score(kb, set, mode: .hybrid, fusion: fusion))")
            }
            let hybrid = try await Self.score(kb, set, mode: .hybrid)
            #expect(hybrid.recall >= max(text.recall, semantic.recall) - 0.02, "\(name): hybrid \(hybrid)")
            #expect(hybrid.mrr >= max(text.mrr, semantic.mrr) - 0.1, "\(name): hybrid \(hybrid)")
        }
    }

    /// The recall of the default hybrid search, held with a margin of about one expected fact:
    /// keyword 1.000 and paraphrase 1.000 measured on 2026-11-23 (the DocC article "Choosing the fusion").
    @Test func hybridRecallOnTheFixtureQueries() async throws {
        let kb = try await Self.shared.value
        let queries = try FixtureKnowledgeBase.queries()
        let keyword = try await Self.score(kb, queries.keyword, mode: .hybrid)
        #expect(keyword.recall >= 0.97, "\(keyword)")
        let paraphrase = try await Self.score(kb, queries.paraphrase, mode: .hybrid)
        #expect(paraphrase.recall >= 0.97, "\(paraphrase)")
    }

    /// The README demo's questions should put the fact that answers them first. "where does my
    /// sister live?" does. "what do I like to code with?" does not: both lists rank "Prefers
    /// concise answers with code examples" first (semantic: cosine; text: the word "code"), and
    /// neither has the Swift or SwiftUI preference in its top 12 (checked 2026-11-24), so no
    /// fusion of the two can lift it; recorded as a known issue until the ranking learns that
    /// "like" asks for preferences.
    @Test func demoQuestionsRankTheAnswerFirst() async throws {
        let kb = try await Self.shared.value
        let sister = try await kb.search(SearchQuery("where does my sister live?", limit: 3))
        #expect(
            sister.first.map {
                [
                    "My sister Ana lives in Lisbon with her husband Rui.",
                    "Ana, the user's sister, lives in Lisbon with her husband Rui.",
                ].contains($0.fact.content)
            } == true, "\(sister.map(\.fact.content))")
        // The question `mnemo demo` asks in its place.
        let language = try await kb.search(SearchQuery("which programming language do I know best?", limit: 3))
        #expect(
            language.first?.fact.content
                == "Swift is the language he knows best; he has written it almost daily since Swift 2.",
            "\(language.map(\.fact.content))")
        let code = try await kb.search(SearchQuery("what do I like to code with?", limit: 3))
        withKnownIssue("the answer is in neither the text list's nor the vector list's top 12") {
            #expect(
                code.first.map {
                    [
                        "User prefers SwiftUI over UIKit for building new screens.",
                        "Swift is the language he knows best; he has written it almost daily since Swift 2.",
                    ].contains($0.fact.content)
                } == true, "\(code.map(\.fact.content))")
        }
    }

    struct DuplicatePairs: Decodable {
        var paraphrases: [[String]]
        var distinct: [[String]]
    }
}
