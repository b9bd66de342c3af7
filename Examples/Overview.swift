import Foundation
import Mnemo

/// The DocC landing page's example.
public enum OverviewExample {
    public static func run(in folder: URL) async throws {
        // example: docc-overview
        let kb = try KnowledgeBase(
            url: folder.appendingPathComponent("memory.sqlite"),
            configuration: .init(namespace: "user-42", embedder: HashingEmbedder()))
        try await kb.addFact(
            NewFact(
                content: "Prefers SwiftUI over UIKit",
                topicPath: "Technology/iOS Development", type: .preference))
        let hits = try await kb.search("which UI framework do I prefer?")
        // end example
        precondition(!hits.isEmpty)
    }
}
