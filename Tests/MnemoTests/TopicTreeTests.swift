import MnemoTestSupport
import Testing

@testable import Mnemo

@Suite("Topic tree", .storesClosed)
struct TopicTreeTests {
    @Test(arguments: Backend.available) func creatingAPathCreatesItsAncestors(on backend: Backend) async throws {
        let kb = try await backend.empty()
        let leaf = try await kb.createTopic("Technology/iOS Development/SwiftUI")
        #expect(leaf.depth == 3)
        #expect(try await kb.topic(at: "technology")?.depth == 1)
        #expect(try await kb.topic(at: "TECHNOLOGY/ios development")?.path == "Technology/iOS Development")
        #expect(try await kb.children(of: nil).map(\.name) == ["Technology"])
    }

    @Test(arguments: Backend.available) func firstSeenSpellingIsKept(on backend: Backend) async throws {
        let kb = try await backend.empty()
        try await kb.createTopic("Health & Fitness")
        let again = try await kb.createTopic("health  &  FITNESS/Running")
        #expect(again.path == "Health & Fitness/Running")
        #expect(try await kb.children(of: nil).count == 1)
    }

    @Test(arguments: Backend.available) func subtreeListsDescendantsOnly(on backend: Backend) async throws {
        let kb = try await backend.empty()
        try await kb.createTopic("A/B/C")
        try await kb.createTopic("A/D")
        try await kb.createTopic("AB") // shares a prefix with A but is not below it
        let subtree = try await kb.subtree(of: "a").map(\.path)
        #expect(subtree == ["A", "A/B", "A/D", "A/B/C"])
    }

    @Test(arguments: Backend.available) func renameCarriesDescendantsAndFacts(on backend: Backend) async throws {
        let kb = try await backend.empty()
        let fact = try await kb.addFact(NewFact(content: "Uses Combine less now", topicPath: "Tech/iOS/Combine"))
        try await kb.renameTopic("Tech", to: "Technology")
        #expect(try await kb.topic(at: "Tech") == nil)
        #expect(try await kb.topic(at: "Technology/iOS/Combine") != nil)
        #expect(try await kb.fact(id: fact.id)?.topicPath == "Technology/iOS/Combine")
        // The full-text index follows: the new topic name finds the fact.
        #expect(try await kb.search("technology").map(\.fact.id) == [fact.id])
        #expect(try await kb.history(ofTopic: "Technology").map(\.kind).contains(.topicRenamed))
    }

    @Test(arguments: Backend.available) func renameToAnExistingSiblingIsRefused(on backend: Backend) async throws {
        let kb = try await backend.empty()
        try await kb.createTopic("Food")
        try await kb.createTopic("Cooking")
        await #expect(throws: MnemoError.conflict(.topicExists("Food"))) {
            try await kb.renameTopic("cooking", to: "food")
        }
    }

    @Test(arguments: Backend.available) func moveReparentsTheSubtree(on backend: Backend) async throws {
        let kb = try await backend.empty()
        try await kb.createTopic("Running/Races")
        try await kb.addFact(NewFact(content: "Ran the Porto half marathon", topicPath: "Running/Races"))
        let moved = try await kb.moveTopic("Running", under: "Health & Fitness")
        #expect(moved.path == "Health & Fitness/Running")
        #expect(moved.depth == 2)
        let races = try #require(try await kb.topic(at: "Health & Fitness/Running/Races"))
        #expect(races.depth == 3)
        let hits = try await kb.search("marathon")
        #expect(hits.first?.fact.topicPath == "Health & Fitness/Running/Races")
        await #expect(throws: MnemoError.self) {
            try await kb.moveTopic("Health & Fitness", under: "Health & Fitness/Running")
        }
    }

    @Test(arguments: Backend.available) func deleteRefusesANonEmptyTopicUnlessCascading(on backend: Backend)
        async throws
    {
        let kb = try await backend.empty()
        try await kb.addFact(NewFact(content: "Has a cat named Miso", topicPath: "Pets/Cats"))
        await #expect(throws: MnemoError.conflict(.topicNotEmpty("Pets", facts: 1, children: 1))) {
            try await kb.deleteTopic("Pets")
        }
        #expect(try await kb.deleteTopic("Pets", cascade: true) == 1)
        #expect(try await kb.topicTree().isEmpty)
        #expect(try await kb.search("miso").isEmpty)
        try await kb.createTopic("Empty")
        #expect(try await kb.deleteTopic("empty") == 0)
    }

    @Test(arguments: Backend.available) func treeCountsFacts(on backend: Backend) async throws {
        let kb = try await backend.with([
            NewFact(content: "Likes Swift", topicPath: "Tech"),
            NewFact(content: "Writes Rust on weekends", topicPath: "Tech/Rust"),
            NewFact(content: "Reads the Rust book", topicPath: "Tech/Rust"),
        ])
        let tree = try await kb.topicTree()
        #expect(tree.count == 1)
        #expect(tree[0].factCount == 1)
        #expect(tree[0].subtreeFactCount == 3)
        #expect(tree[0].children.map(\.factCount) == [2])
    }
}
