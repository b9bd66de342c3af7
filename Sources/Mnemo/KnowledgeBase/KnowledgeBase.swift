import Foundation
import GRDB

/// A user's long-term memory: topics and facts in one SQLite file, searchable by words and meaning.
///
/// A knowledge base is a `Sendable` value: share one instance between tasks and threads. It owns
/// the database connection pool (WAL mode) and runs the schema migrations when it opens. Every
/// operation is scoped to ``namespace``; use ``inNamespace(_:)`` to work on another user's memory
/// through the same connection.
///
/// ```swift
/// let kb = try KnowledgeBase(path: "memory.sqlite", namespace: "user-42")
/// try await kb.addFact(NewFact(content: "Prefers SwiftUI over UIKit",
///                              topicPath: "Technology/iOS Development", type: .preference))
/// let hits = try await kb.search("swiftui")
/// ```
///
/// Give it an ``Embedder`` to enable semantic and hybrid search and near-duplicate merging:
/// every fact written is then embedded, and the vectors are stored with the model's identity.
public final class KnowledgeBase: Sendable {
    /// The namespace that every operation of this instance reads and writes.
    public let namespace: String
    /// The embedder that turns facts and queries into vectors, if any.
    public let embedder: (any Embedder)?
    let writer: any DatabaseWriter
    /// Present exactly when ``embedder`` is.
    let vectorIndex: VectorIndex?

    /// The namespace used when none is given.
    public static let defaultNamespace = "default"

    /// Opens (creating if needed) the knowledge base stored at `path`.
    /// - Parameters:
    ///   - embedder: enables semantic search; `nil` for a text-only knowledge base.
    /// - Throws: `DatabaseError` when the file cannot be opened or is not a Mnemo database;
    ///   ``MnemoError/embedderMismatch(stored:given:)`` when its vectors were made by another
    ///   model (run ``reembed(progress:)`` on a knowledge base opened with
    ///   ``init(path:namespace:reembeddingWith:)``).
    public convenience init(
        path: String, namespace: String = KnowledgeBase.defaultNamespace, embedder: (any Embedder)? = nil
    ) throws {
        try self.init(writer: DatabaseFactory.openPool(atPath: path), namespace: namespace, embedder: embedder)
    }

    /// Opens the knowledge base at `path` with a new embedder even though its stored vectors were
    /// made by another model, in order to call ``reembed(progress:)``. Semantic search is
    /// meaningless until it has run.
    public convenience init(
        path: String, namespace: String = KnowledgeBase.defaultNamespace, reembeddingWith embedder: any Embedder
    ) throws {
        try self.init(writer: DatabaseFactory.openPool(atPath: path), namespace: namespace, embedder: embedder,
                      checkingModel: false)
    }

    /// Creates a knowledge base that lives in memory only, for tests and previews.
    public static func inMemory(
        namespace: String = KnowledgeBase.defaultNamespace, embedder: (any Embedder)? = nil
    ) throws -> KnowledgeBase {
        try KnowledgeBase(writer: DatabaseFactory.openInMemory(), namespace: namespace, embedder: embedder)
    }

    init(writer: any DatabaseWriter, namespace: String, embedder: (any Embedder)?, checkingModel: Bool = true) throws {
        try Self.validate(namespace: namespace)
        self.writer = writer
        self.namespace = namespace
        self.embedder = embedder
        if let embedder {
            if checkingModel {
                try writer.write { db in try EmbeddingTable.adopt(db, identity: embedder.identity) }
            }
            let index = VectorIndex(dimension: embedder.identity.dimension)
            writer.add(transactionObserver: VectorIndexObserver(index: index), extent: .databaseLifetime)
            self.vectorIndex = index
        } else {
            self.vectorIndex = nil
        }
    }

    private init(sharing other: KnowledgeBase, namespace: String) throws {
        try Self.validate(namespace: namespace)
        self.writer = other.writer
        self.embedder = other.embedder
        self.vectorIndex = other.vectorIndex
        self.namespace = namespace
    }

    private static func validate(namespace: String) throws {
        guard !namespace.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw MnemoError.invalidNamespace(namespace)
        }
    }

    /// The same knowledge base (connection, embedder and vector index), scoped to another namespace.
    public func inNamespace(_ namespace: String) throws -> KnowledgeBase {
        try KnowledgeBase(sharing: self, namespace: namespace)
    }

    /// The namespaces that hold at least one topic.
    public func namespaces() async throws -> [String] {
        try await writer.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT namespace FROM topic ORDER BY namespace")
        }
    }
}
