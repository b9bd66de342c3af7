import Foundation
import Mnemo

/// The change feed's example (the "Following changes" article, ``KnowledgeBase/changeStream(after:)``'s
/// documentation), compiled and run by `ExamplesTests`.
public enum ChangeFeedExample {
    /// Keeps a copy of `kb`'s facts from a snapshot and the changes after it, until it holds
    /// `wanted` facts; returns the copy and where to resume.
    public static func follow(_ kb: KnowledgeBase, wanted: Int) async throws -> ([Int64: Fact], ChangeCursor?) {
        var saved: ChangeCursor?
        // example: change-feed
        let snapshot = try await kb.snapshot() // every fact and the tree, with their cursor
        var facts = Dictionary(uniqueKeysWithValues: snapshot.facts.map { ($0.id, $0) })
        for try await page in kb.changeStream(after: snapshot.cursor) {
            for event in page.events {
                guard let id = event.factID else { continue }
                facts[id] = event.fact // nil when the fact no longer exists
            }
            saved = page.next // resume from here next time
            if facts.count >= wanted { break }
        }
        // end example
        return (facts, saved)
    }
}
