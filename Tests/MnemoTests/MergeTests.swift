import MnemoTestSupport
import Testing

@testable import Mnemo

@Suite("Merging and dedupe", .storesClosed)
struct MergeTests {
    /// Vectors pinned so each pair sits at a chosen cosine similarity.
    static func embedder() -> SeededEmbedder {
        SeededEmbedder(
            dimension: 4,
            pinned: [
                "I prefer tea to coffee": [1, 0, 0, 0],
                "Prefers tea over coffee": [0.9, 0.43589, 0, 0], // cosine 0.90
                "I drink tea instead of coffee": [0, 1, 0, 0],
                "I drink coffee instead of tea": [0, 0.997, 0.0774, 0], // cosine 0.997
                "Ran 10 km on Sunday": [0, 0, 1, 0],
                "On Sunday I did a 10 km run": [0, 0, 0.95, 0.3122],
                "Ran 21 km on Sunday": [0, 0, 0.915, 0.4034],
            ])
    }

    @Test(arguments: Backend.available) func aNearDuplicateIsMergedIntoTheOldestFact(on backend: Backend) async throws {
        let kb = try await backend.empty(embedder: Self.embedder())
        let first = try await kb.addFact(
            NewFact(
                content: "I prefer tea to coffee", topicPath: "Food", type: .preference,
                importance: .low, confidence: 0.7, sources: ["conv-1"]))
        #expect(first.isAdded)
        let outcome = try await kb.addFact(
            NewFact(
                content: "Prefers tea over coffee", topicPath: "Drinks", type: .preference,
                importance: .high, confidence: 0.9, sources: ["conv-2"]))
        guard case .merged(into: let second) = outcome else {
            Issue.record("expected a merge, got \(outcome)")
            return
        }
        #expect(second.id == first.id)
        #expect(second.content == "I prefer tea to coffee")
        #expect(second.importance == .high)
        #expect(second.confidence == 0.9)
        #expect(second.sources == ["conv-1", "conv-2"])
        #expect(second.mentionCount == 2)
        #expect(try await kb.stats().facts == 1)
        let history = try await kb.history(ofFact: first.id)
        #expect(history.last?.kind == .merged)
        #expect(history.last?.details["content"] == "Prefers tea over coffee")
    }

    @Test(arguments: Backend.available) func nearMissesAndOtherTypesStaySeparate(on backend: Backend) async throws {
        let kb = try await backend.empty(embedder: Self.embedder())
        try await kb.addFact(NewFact(content: "I drink tea instead of coffee", topicPath: "Food"))
        try await kb.addFact(NewFact(content: "I drink coffee instead of tea", topicPath: "Food"))
        try await kb.addFact(NewFact(content: "Ran 10 km on Sunday", topicPath: "Running", type: .experience))
        try await kb.addFact(NewFact(content: "Ran 21 km on Sunday", topicPath: "Running", type: .experience))
        try await kb.addFact(NewFact(content: "On Sunday I did a 10 km run", topicPath: "Running", type: .experience))
        try await kb.addFact(NewFact(content: "I prefer tea to coffee", topicPath: "Food", type: .preference))
        try await kb.addFact(NewFact(content: "Prefers tea over coffee", topicPath: "Food", type: .goal))
        #expect(try await kb.stats().facts == 6) // only the 10 km paraphrase merged
    }

    @Test(arguments: Backend.available) func mergingTopicsMovesFactsAndMergesSameNamedChildren(on backend: Backend)
        async throws
    {
        let kb = try await backend.with([
            NewFact(content: "Runs on Tuesdays", topicPath: "Health and Fitness/Running"),
            NewFact(content: "Ran a 10k in May", topicPath: "Health and Fitness/Running/Races"),
            NewFact(content: "Does yoga", topicPath: "Health and Fitness/Yoga"),
            NewFact(content: "Ran the Porto half", topicPath: "Health & Fitness/Running/Races"),
            NewFact(content: "Sleeps 7 hours", topicPath: "Health & Fitness"),
        ])
        let dryRun = try await kb.mergeTopics(["Health and Fitness"], into: "Health & Fitness", dryRun: true)
        #expect(dryRun.movedFacts == 3) // Yoga moves whole: its fact counts as moved
        #expect(try await kb.topic(at: "Health and Fitness") != nil)

        let report = try await kb.mergeTopics(["health and fitness"], into: "Health & Fitness")
        #expect(report.movedFacts == 3)
        #expect(
            Set(report.mergedTopics) == [
                "Health and Fitness", "Health and Fitness/Running", "Health and Fitness/Running/Races",
            ])
        #expect(try await kb.topic(at: "Health and Fitness") == nil)
        let tree = try await kb.topicTree()
        #expect(tree.map(\.topic.path) == ["Health & Fitness"])
        #expect(tree[0].subtreeFactCount == 5)
        #expect(tree[0].children.map(\.topic.name) == ["Running", "Yoga"])
        #expect(try await kb.search("porto").first?.fact.topicPath == "Health & Fitness/Running/Races")
        await #expect(throws: MnemoError.self) {
            try await kb.mergeTopics(["Health & Fitness"], into: "Health & Fitness/Yoga")
        }
    }

    @Test(arguments: Backend.available) func dedupeMergesTopicVariantsAndDuplicateFacts(on backend: Backend)
        async throws
    {
        let kb = try await backend.empty(embedder: Self.embedder())
        try await kb.addFact(NewFact(content: "I drink tea instead of coffee", topicPath: "Food & Cooking"))
        try await kb.addFact(NewFact(content: "I drink coffee instead of tea", topicPath: "Cooking and Food"))
        let report = try await kb.dedupe(dryRun: true)
        #expect(report.topicGroups.count == 1)
        #expect(report.factClusters.isEmpty)
        #expect(try await kb.topicTree().count == 2)
        _ = try await kb.dedupe()
        #expect(try await kb.topicTree().count == 1)
        #expect(try await kb.stats().facts == 2)
    }

    @Test func topicNameVariantKeys() {
        #expect(TopicNameVariants.key("Health & Fitness") == TopicNameVariants.key("health and fitness"))
        #expect(TopicNameVariants.key("Food & Cooking") == TopicNameVariants.key("Cooking & Food"))
        #expect(TopicNameVariants.key("Running") != TopicNameVariants.key("Runners"))
    }
}

extension MergeTests {
    @Test func addFactsStoresABatchAndCanSkipNearDuplicateMerging() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: Self.embedder())
        let pair = [
            NewFact(content: "I prefer tea to coffee", topicPath: "Food"),
            NewFact(content: "Prefers tea over coffee", topicPath: "Food"),
        ]
        let separate = try await kb.addFacts(pair, nearDuplicates: nil)
        #expect(Set(separate.map(\.id)).count == 2 && separate.allSatisfy(\.isAdded))
        let other = try kb.inNamespace("other")
        let merged = try await other.addFacts(pair)
        #expect(Set(merged.map(\.id)).count == 1) // the second merged into the first, within one batch
        #expect(merged[0].isAdded && merged[1] == .merged(into: merged[1].fact))
        await #expect(throws: MnemoError.invalidInput(field: "facts[1].content", reason: "the content is empty")) {
            try await other.addFacts([NewFact(content: "fine", topicPath: "A"), NewFact(content: "", topicPath: "A")])
        }
        #expect(try await other.stats().facts == 1)
    }
}
