import Foundation
import GRDB

// A knowledge base opened without an embedder on a database whose facts have vectors would
// store new facts, and changed contents, without a vector: semantic search could not find them
// and near duplicates of them would be added again. It refuses unless the app opted in
// (`Configuration.acceptsFactsWithoutVectors`), and the facts left without a vector get one when
// a knowledge base with the model catches them up.

extension KnowledgeBase {
    /// Gives a vector to every fact (of every namespace) that has none: facts written by a
    /// knowledge base without an embedder (``Configuration/acceptsFactsWithoutVectors``) or
    /// ingested without embeddings. Each batch is written in its own transaction; run it again
    /// after an interruption to finish. It costs one query when every fact has its vector, so an
    /// app can call it each time it starts with its model.
    /// - Returns: the number of facts embedded.
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` without an embedder;
    ///   ``MnemoError/Conflict/embedderMismatch(stored:given:)`` when the stored vectors were
    ///   made by another model (``reembed(batchSize:progress:)`` rebuilds them all); else what
    ///   ``reembed(batchSize:progress:)`` throws.
    @discardableResult
    public func embedFactsWithoutVectors(
        batchSize: Int = 64, progress: (@Sendable (ReembedProgress) -> Void)? = nil
    ) async throws -> Int {
        guard let embedder else {
            throw MnemoError.invalidInput(
                field: "embedder", reason: "embedding facts needs an embedder: open the knowledge base with one")
        }
        let facts = try await writer.read { db in
            try EmbeddingTable.check(db, identity: embedder.identity)
            return try DatabaseCheck.contents(db, factIDs: DatabaseCheck.factsWithoutVectors(db))
        }
        guard !facts.isEmpty else { return 0 }
        try await writeVectors(of: facts, batchSize: batchSize, progress: progress)
        try await writer.write { db in
            if try EmbeddingTable.storedIdentity(db) == nil { try EmbeddingTable.setIdentity(db, embedder.identity) }
        }
        return facts.count
    }

    /// Throws ``MnemoError/Conflict/embedderMissing(stored:)``, inside a write transaction that
    /// is about to leave a fact without a vector, when this knowledge base has no embedder, was
    /// not opened with ``Configuration/acceptsFactsWithoutVectors``, and the database records an
    /// embedding model.
    func refuseFactWithoutVector(_ db: Database) throws {
        guard embedder == nil, !acceptsFactsWithoutVectors, let stored = try EmbeddingTable.storedIdentity(db) else {
            return
        }
        throw MnemoError.conflict(.embedderMissing(stored: stored))
    }
}
