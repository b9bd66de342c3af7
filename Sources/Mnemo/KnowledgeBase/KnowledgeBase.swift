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
/// try await kb.addFact(
///     NewFact(content: "Prefers SwiftUI over UIKit", topicPath: "Technology/iOS Development", type: .preference))
/// let hits = try await kb.search("swiftui")
/// ```
///
/// Give it an ``Embedder`` to enable semantic and hybrid search and near-duplicate merging:
/// every fact written is then embedded, and the vectors are stored with the model's identity.
///
/// ### Unknown ids and paths
///
/// Every call answers a fact id, topic path or operation id that does not exist in the namespace
/// the same way: the two lookups, ``fact(id:)`` and ``topic(at:)``, return `nil`; every other
/// call that names one throws ``MnemoError/notFound(_:)`` (``MnemoError/Missing/fact(_:)``,
/// ``MnemoError/Missing/topic(_:)`` or ``MnemoError/Missing/operation(_:)``). A fact of another
/// namespace does not exist here. A deleted fact keeps its history, so
/// ``history(ofFact:)`` still answers for it. A ``FactFilter`` naming a topic that does not
/// exist is not an error: no fact matches it.
public final class KnowledgeBase: Sendable {
    /// The namespace that every operation of this instance reads and writes.
    public let namespace: String
    /// The embedder that turns facts and queries into vectors, if any.
    public let embedder: (any Embedder)?
    /// The database connection, whose errors arrive as ``MnemoError``s.
    let writer: StorageWriter
    /// Present exactly when ``embedder`` is.
    let vectorIndex: VectorIndex?
    /// Held by every knowledge base that shares ``vectorIndex``: when the last one is released,
    /// a graph build still running in the background stops (see ``VectorIndex/Lifetime``).
    let vectorIndexLifetime: VectorIndex.Lifetime?
    /// ``Configuration/undoRetention``.
    let undoRetention: TimeInterval
    /// ``Configuration/changeRetention``.
    let changeRetention: TimeInterval
    /// The clock of ``Configuration/now``.
    let clock: @Sendable () -> Date
    /// ``Configuration/factLimit`` and ``Configuration/quotaPolicy``.
    let quota: FactQuota?
    /// ``Configuration/acceptsFactsWithoutVectors``.
    let acceptsFactsWithoutVectors: Bool

    /// The most facts a namespace may hold (``Configuration/factLimit``), or `nil` for no limit.
    public var factLimit: Int? { quota?.limit }
    /// What a write does at ``factLimit`` (``Configuration/quotaPolicy``).
    public var quotaPolicy: QuotaPolicy { quota?.policy ?? .reject }

    /// The current time by the knowledge base's clock (``Configuration/now``).
    public var now: Date { clock() }

    /// The namespace used when none is given.
    public static let defaultNamespace = "default"

    /// Opens (creating if needed) the knowledge base in the file at `url`.
    ///
    /// The file is opened as a GRDB `DatabasePool` (WAL mode: readers never wait for the
    /// writer) with ``Configuration/database`` plus what Mnemo needs, and the schema migrations
    /// run before this returns.
    /// - Throws: ``MnemoError/databaseUnusable(path:reason:)`` when the file is not a Mnemo
    ///   database, was written by a newer version, or cannot be opened for writing (nothing is
    ///   written to it then); ``MnemoError/storageFailure(_:)`` for another database failure;
    ///   ``MnemoError/conflict(_:)`` with
    ///   ``MnemoError/Conflict/embedderMismatch(stored:given:)`` when its vectors were made by
    ///   another model (open it with ``Configuration/acceptsOtherEmbedder`` and run
    ///   ``reembed(batchSize:progress:)``); ``MnemoError/invalidInput(field:reason:)`` for an
    ///   empty namespace. Opened without an embedder, a database whose facts have vectors opens,
    ///   but a write that would leave a fact without one throws
    ///   ``MnemoError/Conflict/embedderMissing(stored:)`` (see
    ///   ``Configuration/acceptsFactsWithoutVectors``).
    public convenience init(url: URL, configuration: Configuration = Configuration()) throws {
        let pool: DatabasePool
        do {
            pool = try DatabaseFactory.openPool(
                atPath: url.path, configuration: configuration.preparedDatabaseConfiguration())
        } catch {
            throw MnemoError(error)
        }
        try self.init(migrating: pool, configuration: configuration)
    }

    /// Opens the knowledge base stored in an app's own GRDB database: a `DatabasePool` in an App
    /// Group container, an encrypted database, a `DatabaseQueue` the app already uses.
    ///
    /// The writer's configuration must have been prepared with ``KnowledgeBase/prepare(_:mmapSize:)`` before the writer
    /// was created (Mnemo registers its ranking function on every connection). Mnemo's tables
    /// (`fact`, `topic`, `history`, `meta`, `fact_embedding`, `fact_fts`) are created by its
    /// migrations if missing; keep the app's own tables under other names.
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` when the writer was not prepared,
    ///   and what ``init(url:configuration:)`` throws.
    public convenience init(writer: some DatabaseWriter, configuration: Configuration = Configuration()) throws {
        do {
            try writer.read { db in try BM25Function.checkRegistered(db) }
        } catch {
            throw MnemoError.invalidInput(
                field: "writer",
                reason:
                    "its configuration was not prepared with KnowledgeBase.prepare(_:) before the writer was created")
        }
        try self.init(migrating: writer, configuration: configuration)
    }

    /// Adds what Mnemo needs to every connection of a GRDB configuration: its full-text ranking
    /// function, foreign keys, in-memory temporary tables, and the memory map of
    /// ``Configuration/mmapSize``. Call it before creating the writer you pass to
    /// ``init(writer:configuration:)``.
    ///
    /// The first call in a process, if SQLite has not started yet, also turns off SQLite's memory
    /// statistics for the whole process: counting every allocation under one mutex slowed
    /// searches on several threads. `sqlite3_memory_used()` then reads zero and
    /// `sqlite3_soft_heap_limit64()` has no effect.
    public static func prepare(_ configuration: inout GRDB.Configuration, mmapSize: Int = Configuration.defaultMmapSize)
    {
        DatabaseFactory.prepare(&configuration, mmapSize: mmapSize)
    }

    /// Opens (creating if needed) the knowledge base stored at `path`.
    /// - Parameters:
    ///   - path: the database file's path.
    ///   - namespace: whose memory every operation reads and writes.
    ///   - embedder: enables semantic search; `nil` for a text-only knowledge base.
    /// - Throws: what ``init(url:configuration:)`` throws.
    public convenience init(
        path: String, namespace: String = KnowledgeBase.defaultNamespace, embedder: (any Embedder)? = nil
    ) throws {
        try self.init(
            url: URL(fileURLWithPath: path),
            configuration: Configuration(namespace: namespace, embedder: embedder))
    }

    /// Opens the knowledge base at `path` with a new embedder even though its stored vectors were
    /// made by another model, in order to call ``reembed(batchSize:progress:)``. Semantic search
    /// is meaningless until it has run.
    public convenience init(
        path: String, namespace: String = KnowledgeBase.defaultNamespace, reembeddingWith embedder: any Embedder
    ) throws {
        try self.init(
            url: URL(fileURLWithPath: path),
            configuration: Configuration(namespace: namespace, embedder: embedder, acceptsOtherEmbedder: true))
    }

    /// Creates a knowledge base that lives in memory only, for tests and previews.
    public static func inMemory(
        namespace: String = KnowledgeBase.defaultNamespace, embedder: (any Embedder)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws -> KnowledgeBase {
        let configuration = Configuration(namespace: namespace, embedder: embedder, now: now)
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(configuration: configuration.preparedDatabaseConfiguration())
        } catch {
            throw MnemoError(error)
        }
        return try KnowledgeBase(migrating: queue, configuration: configuration)
    }

    /// - Parameters:
    ///   - readOnly: the database is never written (see ``init(readingOnly:namespace:embedder:)``):
    ///     no migration runs, and the stored model identity is only compared.
    ///   - followsChanges: false when no other connection can change the database.
    ///   - replication: where writes are also recorded (see ``StorageReplication``).
    init(
        migrating writer: any DatabaseWriter, configuration: Configuration,
        readOnly: Bool = false, followsChanges: Bool = true, replication: (any StorageReplication)? = nil
    ) throws {
        try Self.validate(namespace: configuration.namespace)
        if !readOnly {
            do {
                try Schema.migrator.migrate(writer)
            } catch {
                throw MnemoError(error)
            }
        }
        self.writer = StorageWriter(base: writer, replication: replication)
        if !readOnly {
            writer.add(transactionObserver: FeedCommitObserver(signal: self.writer.feed), extent: .databaseLifetime)
        }
        self.namespace = configuration.namespace
        self.embedder = configuration.embedder
        self.undoRetention = configuration.undoRetention
        self.changeRetention = configuration.changeRetention
        self.clock = configuration.now
        self.quota = try FactQuota(limit: configuration.factLimit, policy: configuration.quotaPolicy)
        self.acceptsFactsWithoutVectors = configuration.acceptsFactsWithoutVectors
        if let embedder = configuration.embedder {
            if readOnly {
                try self.writer.read { db in try EmbeddingTable.check(db, identity: embedder.identity) }
            } else if !configuration.acceptsOtherEmbedder {
                try self.writer.write { db in try EmbeddingTable.adopt(db, identity: embedder.identity) }
            }
            let index = VectorIndex(
                dimension: embedder.identity.dimension, followsChanges: followsChanges,
                graphStorage: readOnly ? nil : Self.graphStorage(of: writer, model: embedder.identity.name))
            if !readOnly {
                writer.add(transactionObserver: VectorIndexObserver(index: index), extent: .databaseLifetime)
            }
            self.vectorIndex = index
            self.vectorIndexLifetime = VectorIndex.Lifetime(index)
        } else {
            self.vectorIndex = nil
            self.vectorIndexLifetime = nil
        }
    }

    private init(sharing other: KnowledgeBase, namespace: String, quota: FactQuota?) throws {
        try Self.validate(namespace: namespace)
        self.writer = other.writer
        self.embedder = other.embedder
        self.vectorIndex = other.vectorIndex
        self.vectorIndexLifetime = other.vectorIndexLifetime
        self.undoRetention = other.undoRetention
        self.changeRetention = other.changeRetention
        self.clock = other.clock
        self.namespace = namespace
        self.quota = quota
        self.acceptsFactsWithoutVectors = other.acceptsFactsWithoutVectors
    }

    private static func validate(namespace: String) throws {
        guard !namespace.isBlank else {
            throw MnemoError.invalidInput(
                field: "namespace", reason: "\"\(namespace)\" is empty; a namespace names whose memory it is")
        }
        // SQLite's text binding ends a string at NUL: "alice\0x" would read and write alice's memory.
        guard !namespace.utf8.contains(0) else {
            throw MnemoError.invalidInput(
                field: "namespace", reason: "a namespace cannot hold a NUL character (U+0000)")
        }
    }

    /// The same knowledge base (connection, embedder and vector index), scoped to another namespace.
    ///
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` for an empty namespace, and for a
    ///   knowledge base of a shared store (PostgreSQL), whose node holds each namespace apart:
    ///   ask the store (`PostgresMemory.knowledgeBase(namespace:)`) instead.
    public func inNamespace(_ namespace: String) throws -> KnowledgeBase {
        if namespace != self.namespace, writer.replication != nil {
            throw MnemoError.invalidInput(
                field: "namespace",
                reason:
                    "a knowledge base on a shared store holds one namespace; open \"\(namespace)\" through the store")
        }
        return try KnowledgeBase(sharing: self, namespace: namespace, quota: quota)
    }

    /// The knowledge base of `namespace` with this one's embedder and fact limit, on either
    /// backend: ``inNamespace(_:)`` for a database of its own, the store's copy of the namespace
    /// (caught up with every write acknowledged so far) for a shared store.
    package func knowledgeBase(forNamespace namespace: String) async throws -> KnowledgeBase {
        guard let replication = writer.replication else { return try inNamespace(namespace) }
        let other = try await replication.knowledgeBase(namespace: namespace)
        return quota == nil ? other : try KnowledgeBase(sharing: other, namespace: namespace, quota: quota)
    }

    /// The same knowledge base (connection, embedder, vector index and namespace) with another
    /// fact limit: a server gives each user the limit of their plan.
    ///
    /// ```swift
    /// let alice = try kb.inNamespace("alice").withFactLimit(50) // free plan
    /// let bob = try kb.inNamespace("bob").withFactLimit(1_000, policy: .evictLeastValuable)
    /// ```
    /// - Parameters:
    ///   - limit: the most facts the namespace may hold, or `nil` for no limit.
    ///   - policy: what a write does at the limit.
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` for a negative limit.
    public func withFactLimit(_ limit: Int?, policy: QuotaPolicy = .reject) throws -> KnowledgeBase {
        try KnowledgeBase(sharing: self, namespace: namespace, quota: FactQuota(limit: limit, policy: policy))
    }

    /// The namespaces that hold at least one topic.
    public func namespaces() async throws -> [String] {
        if let replication = writer.replication { return try await replication.namespaces() }
        return try await writer.read { db in try TopicTable.namespaces(db) }
    }
}
