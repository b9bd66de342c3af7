import Foundation
import Mnemo
import MnemoEncoder

/// The README's example and the Getting Started article's, compiled and run by `ExamplesTests`
/// (which also checks that the documents quote them exactly: the text between the `example:`
/// markers).
public enum GettingStarted {
    /// How the README and the article open the memory in `folder`: on every start, whether the
    /// model was there the last time or not.
    public static func open(in folder: URL) async throws -> KnowledgeBase {
        // example: open-memory
        // The embedder is optional: without one, Mnemo is a full-text knowledge base.
        // SentenceEncoder (MnemoEncoder) runs all-MiniLM-L6-v2 when the model is installed;
        // HashingEmbedder is the dependency-free fallback.
        let url = folder.appendingPathComponent("memory.sqlite")
        var configuration = KnowledgeBase.Configuration(
            namespace: "user-42", embedder: try SentenceEncoder.loadDefault() ?? HashingEmbedder())
        let kb: KnowledgeBase
        do {
            kb = try KnowledgeBase(url: url, configuration: configuration)
        } catch MnemoError.conflict(.embedderMismatch) {
            // The model was installed or removed since the last start: rebuild the vectors with this one.
            configuration.acceptsOtherEmbedder = true
            kb = try KnowledgeBase(url: url, configuration: configuration)
            try await kb.reembed()
        }
        // end example
        return kb
    }

    /// The README's example, with the database in `folder`.
    public static func frontPage(in folder: URL) async throws {
        let kb = try await open(in: folder)
        // example: front-page
        try await kb.addFact(
            NewFact(
                content: "Prefers SwiftUI over UIKit", topicPath: "Technology/iOS Development",
                type: .preference, importance: .high))
        let hits = try await kb.search("which UI framework do I like?")
        for hit in hits { print(hit.fact.content, hit.fact.topicPath, hit.score) }
        // end example
    }

    /// Runs the example with its database in `folder`.
    public static func run(in folder: URL) async throws {
        let kb = try await open(in: folder)
        // example: getting-started
        let outcome = try await kb.addFact(
            NewFact(
                content: "Prefers SwiftUI over UIKit",
                topicPath: "Technology/iOS Development",
                type: .preference, importance: .high, confidence: 0.95,
                sources: ["conv-17"]))
        print(outcome.id, outcome.isAdded) // .added(fact), .merged(into:) or .unchanged(fact)
        try await kb.addFact(
            NewFact(
                content: "Ran a half marathon in May",
                topicPath: "Health and Fitness", type: .experience))

        // Hybrid search (words and meaning) with filters; text search without an embedder.
        let hits = try await kb.search(
            SearchQuery(
                "which programming language do I know best?",
                filter: FactFilter(minimumImportance: .medium),
                limit: 5))
        for hit in hits { print(hit.fact.content, hit.fact.topicPath, hit.score) }

        // Topics, history, maintenance.
        let tree = try await kb.topicTree()
        print(tree.map(\.topic.path))
        if let best = hits.first {
            print(try await kb.history(ofFact: best.fact.id).map(\.kind))
        }
        try await kb.createTopic("Health & Fitness")
        try await kb.mergeTopics(["Health and Fitness"], into: "Health & Fitness")
        let report = try await kb.dedupe(dryRun: true)
        print(report.factClusters.count, "duplicate clusters")
        // end example
    }
}
