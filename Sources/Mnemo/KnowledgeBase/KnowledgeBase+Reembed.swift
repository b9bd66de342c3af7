import Foundation
import GRDB

extension KnowledgeBase {
    /// Embeds texts with the knowledge base's embedder, checking what it returns; `nil` without one.
    ///
    /// A cancelled task throws `CancellationError` before the call, and after it when the
    /// embedder does not check for cancellation itself: the vectors of a cancelled task are
    /// never stored.
    func embed(_ texts: [String]) async throws -> [[Float]]? {
        guard let embedder, !texts.isEmpty else { return nil }
        try Task.checkCancellation()
        let vectors: [[Float]]
        do {
            vectors = try await embedder.embed(texts)
        } catch let error as MnemoError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw MnemoError.embedderFailure(model: embedder.identity, reason: "\(error)")
        }
        try Task.checkCancellation()
        let dimension = embedder.identity.dimension
        guard vectors.count == texts.count, vectors.allSatisfy({ $0.count == dimension }) else {
            throw MnemoError.embedderFailure(
                model: embedder.identity,
                reason:
                    "returned \(vectors.count) vectors of sizes \(Set(vectors.map(\.count)).sorted()) for \(texts.count) texts"
            )
        }
        return vectors
    }

    /// Progress of ``reembed(batchSize:progress:)``.
    public struct ReembedProgress: Sendable {
        public var done: Int
        public var total: Int
    }

    /// Rebuilds every fact's vector (in all namespaces) with the current embedder and records its
    /// identity: the fix after changing models. Each batch is written in its own transaction, and
    /// the model's identity is recorded only when every fact has its new vector.
    ///
    /// A cancelled task stops within one batch. Run it again to finish: it starts over and
    /// rewrites every vector.
    /// - Returns: the number of facts embedded.
    /// - Throws: `CancellationError` when the task is cancelled before a batch was written;
    ///   ``MnemoError/interrupted(stored:cause:)`` when it stops (cancelled, or the embedder or
    ///   the database failed) after `stored` facts got their new vectors; else what the embedder
    ///   or the database throws.
    @discardableResult
    public func reembed(batchSize: Int = 64, progress: (@Sendable (ReembedProgress) -> Void)? = nil) async throws -> Int
    {
        guard let embedder else {
            throw MnemoError.invalidInput(
                field: "embedder", reason: "reembed needs an embedder: open the knowledge base with one")
        }
        let facts = try await writer.read { db in try FactTable.contents(db) }
        try await writeVectors(of: facts, batchSize: batchSize, progress: progress)
        try await writer.write { db in try EmbeddingTable.setIdentity(db, embedder.identity) }
        vectorIndex?.invalidate()
        return facts.count
    }

    /// Embeds `facts` and writes their vectors, each batch in its own transaction.
    /// - Throws: what ``reembed(batchSize:progress:)`` throws.
    func writeVectors(
        of facts: [(id: Int64, content: String)], batchSize: Int, progress: (@Sendable (ReembedProgress) -> Void)?
    ) async throws {
        var done = 0
        progress?(ReembedProgress(done: 0, total: facts.count))
        for batch in facts.chunked(into: max(1, batchSize)) {
            do {
                guard let vectors = try await embed(batch.map(\.content)) else { break }
                try await writer.write { db in
                    for (fact, vector) in zip(batch, vectors) {
                        try EmbeddingTable.write(db, factID: fact.id, vector: vector)
                    }
                }
            } catch {
                // Nothing written yet: the error as it is. Else say how many vectors are new.
                guard done > 0 else { throw error }
                throw MnemoError.interrupted(stored: done, cause: MnemoError(error))
            }
            done += batch.count
            progress?(ReembedProgress(done: done, total: facts.count))
        }
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
