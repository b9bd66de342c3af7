import Mnemo

/// The random edits of the change feed's completeness tests, as a writer of a shared memory
/// makes them: adds, moves, deletions, erasures and undos, in proportions that keep the memory
/// growing.
package enum RandomEdits {
    /// Makes one random edit to `kb`: adds a fact with `content` (whose id joins `ids`), or
    /// moves, deletes or erases one of `ids`, or undoes the last edit. An edit of a fact that
    /// another writer already took away fails, and is left at that. `pick(n)` draws from `0..<n`.
    package static func edit(
        _ kb: KnowledgeBase, ids: inout [Int64], adding content: @autoclosure () -> String,
        pick: (Int) -> Int
    ) async throws {
        switch pick(6) {
        case 0, 1:
            let fact = NewFact(content: content(), topicPath: try TopicPath("T\(pick(4))"))
            ids.append(try await kb.addFact(fact).id)
        case 2 where !ids.isEmpty:
            _ = try? await kb.updateFact(id: ids[pick(ids.count)], FactUpdate(importance: .high, topicPath: "Moved"))
        case 3 where !ids.isEmpty:
            try? await kb.deleteFact(id: ids[pick(ids.count)])
        case 4 where !ids.isEmpty:
            _ = try? await kb.eraseFacts(ids: [ids[pick(ids.count)]])
        default:
            _ = try? await kb.undo()
        }
    }
}
