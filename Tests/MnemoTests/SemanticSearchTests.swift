import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

@Suite("Semantic and hybrid search", .storesClosed)
struct SemanticSearchTests {
    /// 200 facts over 4 types, 4 importances, 5 topics; only 1 in 8 is a high-importance goal.
    static func corpus() -> [NewFact] {
        (0..<200).map { index in
            NewFact(
                content: "memo \(index)", topicPath: try! TopicPath("Topic \(index % 5)/Sub \(index % 2)"),
                type: FactType.allCases[index % 4], importance: Importance.allCases[(index / 4) % 4])
        }
    }

    static func knowledgeBase(_ embedder: SeededEmbedder = SeededEmbedder(), on backend: Backend = .sqlite) async throws
        -> KnowledgeBase
    {
        let kb = try await backend.empty(embedder: embedder)
        for fact in corpus() { try await kb.addFact(fact) }
        return kb
    }

    @Test(arguments: Backend.available) func theSameTextIsTheNearestFact(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(on: backend)
        let hits = try await kb.search(SearchQuery("memo 42", mode: .semantic, limit: 3, relativeScoreFloor: nil))
        #expect(hits.count == 3)
        #expect(hits[0].fact.content == "memo 42")
        #expect(abs((hits[0].similarity ?? 0) - 1) < 1e-5)
        #expect(hits[0].similarity! >= hits[1].similarity!)
    }

    @Test(arguments: [SearchMode.semantic, .hybrid])
    func everyFilterReturnsKResultsWhenKExist(_ mode: SearchMode) async throws {
        let kb = try await Self.knowledgeBase()
        let filters: [(FactFilter, (NewFact) -> Bool)] = [
            (FactFilter(types: [.goal]), { $0.type == .goal }),
            (FactFilter(importances: [.high]), { $0.importance == .high }),
            (FactFilter(minimumImportance: .medium), { $0.importance >= .medium }),
            (
                FactFilter(types: [.goal], importances: [.negligible]),
                { $0.type == .goal && $0.importance == .negligible }
            ),
            (FactFilter(topicPath: "topic 3/sub 1"), { $0.topicPath == "Topic 3/Sub 1" }),
            (FactFilter(topicPath: "Topic 2"), { $0.topicPath.description.hasPrefix("Topic 2/") }),
        ]
        for (filter, passes) in filters {
            let expected = Self.corpus().filter(passes).count
            #expect(expected >= 10)
            let hits = try await kb.search(
                SearchQuery("memo 7", mode: mode, filter: filter, limit: 10, relativeScoreFloor: nil))
            #expect(hits.count == 10, "filter \(filter)")
            for hit in hits {
                let source = NewFact(
                    content: hit.fact.content, topicPath: try TopicPath(hit.fact.topicPath),
                    type: hit.fact.type, importance: hit.fact.importance)
                #expect(passes(source), "\(hit.fact.content) should not pass \(filter)")
            }
            let all = try await kb.search(
                SearchQuery("memo 7", mode: mode, filter: filter, limit: 500, relativeScoreFloor: nil))
            #expect(all.count == expected)
        }
    }

    @Test(arguments: Backend.available) func inactiveFactsAreHiddenUnlessAsked(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(on: backend)
        let target = try #require(
            try await kb.search(SearchQuery("memo 5", mode: .semantic, limit: 1, relativeScoreFloor: nil)).first)
        try await kb.deactivateFact(id: target.fact.id)
        #expect(
            try await kb.search(SearchQuery("memo 5", mode: .semantic, limit: 1, relativeScoreFloor: nil)).first?.fact
                .id != target.fact.id)
        let inactive = try await kb.search(
            SearchQuery(
                "memo 5", mode: .semantic,
                filter: FactFilter(activity: .inactiveOnly), limit: 5, relativeScoreFloor: nil))
        #expect(inactive.map(\.fact.id) == [target.fact.id])
    }

    @Test(arguments: Backend.available) func minSimilarityDropsWeakHits(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(on: backend)
        let hits = try await kb.search(
            SearchQuery("memo 9", mode: .semantic, limit: 200, minSimilarity: 0.4, relativeScoreFloor: nil))
        #expect(hits.first?.fact.content == "memo 9")
        #expect(hits.allSatisfy { $0.similarity! >= 0.4 })
        let unfiltered = try await kb.search(
            SearchQuery("memo 9", mode: .semantic, limit: 200, relativeScoreFloor: nil))
        #expect(hits.count == unfiltered.filter { $0.similarity! >= 0.4 }.count)
        #expect(hits.count < 20)
        #expect(
            try await kb.search(
                SearchQuery("zzz", mode: .semantic, limit: 50, minSimilarity: 0.99, relativeScoreFloor: nil)
            ).isEmpty)
    }

    /// By default a hit scoring under 40 % of the best one is too weak to show: the seeded
    /// vectors of other facts sit near cosine 0 against the exact match's 1.
    @Test(arguments: Backend.available) func weakHitsAreLeftOutByDefault(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(on: backend)
        for mode in [SearchMode.semantic, .hybrid] {
            let all = try await kb.search(SearchQuery("memo 9", mode: mode, limit: 200, relativeScoreFloor: nil))
            #expect(all.count == 200)
            let shown = try await kb.search(SearchQuery("memo 9", mode: mode, limit: 200))
            #expect(shown.first?.fact.content == "memo 9")
            let best = try #require(shown.first?.score)
            #expect(shown.allSatisfy { $0.score >= SearchQuery.defaultRelativeScoreFloor * best })
            #expect(shown.count == all.filter { $0.score >= SearchQuery.defaultRelativeScoreFloor * best }.count)
            #expect(shown.count < 20, "\(mode)")
            let zero = try await kb.search(SearchQuery("memo 9", mode: mode, limit: 200, relativeScoreFloor: 0))
            #expect(zero.count == 200)
        }
        await #expect(throws: MnemoError.self) {
            try await kb.search(SearchQuery("memo", mode: .semantic, relativeScoreFloor: 1.5))
        }
    }

    @Test(arguments: [SearchMode.semantic, .hybrid])
    func textWithNothingSearchableFindsNothing(_ mode: SearchMode) async throws {
        let kb = try await Self.knowledgeBase()
        for text in ["???", "", "  ", "🙂🙂", "--"] {
            #expect(try await kb.search(SearchQuery(text, mode: mode)).isEmpty, "\(text)")
        }
    }

    @Test(arguments: Backend.available) func pagingMatchesTheFullList(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(on: backend)
        for mode in [SearchMode.semantic, .hybrid] {
            let all = try await kb.search(SearchQuery("memo 1", mode: mode, limit: 30, relativeScoreFloor: nil)).map(
                \.fact.id)
            let page = try await kb.search(
                SearchQuery("memo 1", mode: mode, limit: 10, offset: 10, relativeScoreFloor: nil)
            ).map(\.fact.id)
            #expect(page == Array(all[10..<20]))
        }
    }

    @Test(arguments: Backend.available) func indexFollowsAddsUpdatesDeactivationsAndDeletes(on backend: Backend)
        async throws
    {
        let kb = try await Self.knowledgeBase(on: backend)
        _ = try await kb.search(SearchQuery("warm up", mode: .semantic, relativeScoreFloor: nil)) // load the index
        let added = try await kb.addFact(NewFact(content: "brand new fact", topicPath: "New"))
        #expect(
            try await kb.search(SearchQuery("brand new fact", mode: .semantic, limit: 1, relativeScoreFloor: nil))
                .first?.fact.id == added.id)

        try await kb.updateFact(id: added.id, FactUpdate(content: "renamed fact", type: .goal, topicPath: "Moved"))
        let updated = try await kb.search(
            SearchQuery(
                "renamed fact", mode: .semantic,
                filter: FactFilter(types: [.goal], topicPath: "moved"), limit: 1, relativeScoreFloor: nil))
        #expect(updated.first?.fact.id == added.id)
        #expect(
            try await kb.search(SearchQuery("brand new fact", mode: .semantic, limit: 1, relativeScoreFloor: nil))
                .first?.fact.id != added.id)

        try await kb.deleteFact(id: added.id)
        #expect(
            try await kb.search(SearchQuery("renamed fact", mode: .semantic, limit: 300, relativeScoreFloor: nil))
                .allSatisfy { $0.fact.id != added.id })

        // A cascade delete of a topic leaves no trace in the index either.
        try await kb.deleteTopic("Topic 0", cascade: true)
        let rest = try await kb.search(SearchQuery("memo 0", mode: .semantic, limit: 300, relativeScoreFloor: nil))
        #expect(rest.count == 160)
        #expect(rest.allSatisfy { !$0.fact.topicPath.hasPrefix("Topic 0") })
    }

    @Test(arguments: Backend.available) func quantizedScanAgreesWithExact(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(SeededEmbedder(dimension: 64), on: backend)
        var overlap = 0
        for probe in 0..<20 {
            let exact = try await kb.search(
                SearchQuery("probe \(probe)", mode: .semantic, limit: 10, relativeScoreFloor: nil))
            let quick = try await kb.search(
                SearchQuery(
                    "probe \(probe)", mode: .semantic, limit: 10, vectorScan: .quantized, relativeScoreFloor: nil))
            overlap += Set(exact.map(\.fact.id)).intersection(quick.map(\.fact.id)).count
            #expect(quick.map(\.similarity) == quick.map(\.similarity).sorted(by: { $0! > $1! }))
        }
        #expect(Double(overlap) / 200 >= 0.99)
    }

    @Test(arguments: Backend.available) func hybridKeepsStrongWordMatchesAndStrongMeaningMatches(on backend: Backend)
        async throws
    {
        let embedder = SeededEmbedder(
            dimension: 8,
            pinned: [
                "Prefers SwiftUI over UIKit": [1, 0, 0, 0, 0, 0, 0, 0],
                "what do I like to code with?": [0.9, 0.1, 0, 0, 0, 0, 0, 0],
                "I like my coffee black": [0, 1, 0, 0, 0, 0, 0, 0],
                "I want to code with friends more": [0, 0, 1, 0, 0, 0, 0, 0],
            ])
        let kb = try await backend.empty(embedder: embedder)
        for content in ["Prefers SwiftUI over UIKit", "I like my coffee black", "I want to code with friends more"] {
            try await kb.addFact(NewFact(content: content, topicPath: "Notes"))
        }
        // The text list ranks the stop-word matches first; the meaning match must still win.
        let text = try await kb.search(SearchQuery("what do I like to code with?", mode: .text))
        #expect(text.first?.fact.content != "Prefers SwiftUI over UIKit")
        let hybrid = try await kb.search(
            SearchQuery("what do I like to code with?", mode: .hybrid, relativeScoreFloor: nil))
        #expect(hybrid.first?.fact.content == "Prefers SwiftUI over UIKit")
    }

    @Test(arguments: Backend.available) func semanticSearchNeedsAnEmbedder(on backend: Backend) async throws {
        let kb = try await backend.empty()
        await #expect(throws: MnemoError.self) {
            try await kb.search(SearchQuery("x", mode: .semantic, relativeScoreFloor: nil))
        }
    }

    @Test func anotherModelIsAClearErrorUntilReembed() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        do {
            let kb = try KnowledgeBase(path: path, embedder: SeededEmbedder(name: "model-a"))
            try await kb.addFact(NewFact(content: "Lives in Porto", topicPath: "Home"))
        }
        let other = SeededEmbedder(name: "model-b", dimension: 48)
        #expect(
            throws: MnemoError.conflict(
                .embedderMismatch(stored: SeededEmbedder(name: "model-a").identity, given: other.identity))
        ) {
            try KnowledgeBase(path: path, embedder: other)
        }
        let error = MnemoError.conflict(
            .embedderMismatch(stored: SeededEmbedder(name: "model-a").identity, given: other.identity))
        // An app reads the library's way out, not the command line's.
        #expect(error.description.contains("`acceptsOtherEmbedder`") && error.description.contains("`reembed()`"))
        #expect(!error.description.contains("mnemo"))

        let reembedding = try KnowledgeBase(path: path, reembeddingWith: other)
        #expect(try await reembedding.reembed() == 1)
        let reopened = try KnowledgeBase(path: path, embedder: other)
        let hits = try await reopened.search(
            SearchQuery("Lives in Porto", mode: .semantic, limit: 1, relativeScoreFloor: nil))
        #expect(abs((hits.first?.similarity ?? 0) - 1) < 1e-5)
    }

    @Test func namespacesAreSeparateInTheIndex() async throws {
        let alice = try KnowledgeBase.inMemory(namespace: "alice", embedder: SeededEmbedder())
        let bob = try alice.inNamespace("bob")
        try await alice.addFact(NewFact(content: "secret of alice", topicPath: "Secrets"))
        try await bob.addFact(NewFact(content: "secret of bob", topicPath: "Secrets"))
        let hits = try await bob.search(
            SearchQuery("secret of alice", mode: .hybrid, limit: 10, relativeScoreFloor: nil))
        #expect(hits.map(\.fact.content) == ["secret of bob"])
    }
}
