import Foundation
import GRDB
import Logging
import Mnemo
import PostgresNIO

/// A memory shared by any number of servers through one PostgreSQL database.
///
/// PostgreSQL holds every namespace (the system of record). Each node keeps a SQLite copy of
/// the namespaces it serves, loaded on first use, and runs the same engine on it: the same
/// full-text ranking, the same vector index, the same near-duplicate, conflict and undo rules.
/// A write takes the namespace's row lock in PostgreSQL, catches the copy up with what other
/// nodes wrote, runs on the copy and records its row changes in PostgreSQL in one transaction;
/// other nodes follow a change feed (`LISTEN`/`NOTIFY`) and check the namespace's version on
/// every ``knowledgeBase(namespace:)``, so a write acknowledged by one node is seen by the next
/// request to any other.
///
/// ```swift
/// let memory = try await PostgresMemory.connect(
///     PostgresLocation(url: "postgres://mnemo:secret@db.internal/mnemo"),
///     configuration: KnowledgeBase.Configuration(embedder: encoder))
/// let alice = try await memory.knowledgeBase(namespace: "alice")
/// try await alice.addFact(NewFact(content: "Prefers window seats", topicPath: "Travel", type: .preference))
/// ```
public final class PostgresMemory: Sendable {
    public struct Options: Sendable {
        /// Where the node keeps its copies; a fresh temporary folder when `nil` (removed when the
        /// node closes, or by the next node to start on this machine when it was killed). One
        /// node per folder, which it locks: give each node its own to keep copies across restarts.
        public var copiesDirectory: URL?
        /// The most memory the copies' vectors may take; the least recently used namespaces
        /// beyond it are closed (and reloaded, from their file, on their next request).
        public var vectorCacheBytes: Int?
        /// How long a request waits for PostgreSQL before it fails with
        /// ``MnemoError/storageUnavailable(reason:)``.
        public var timeout: Duration = .seconds(5)
        /// Connections to PostgreSQL this node may open.
        public var maximumConnections = 20
        /// The name the node's connections show in `pg_stat_activity` (`application_name`).
        public var applicationName = "mnemo"
        /// The most writes of one namespace committed in one transaction (group commit); 1
        /// commits each write alone.
        public var maximumWriteGroup = 128

        public init(copiesDirectory: URL? = nil, vectorCacheBytes: Int? = nil) {
            self.copiesDirectory = copiesDirectory
            self.vectorCacheBytes = vectorCacheBytes
        }
    }

    /// What a node holds, for `/healthz` and `/metrics`.
    public struct Health: Sendable, Codable, Equatable {
        /// Namespaces whose copies are open.
        public var namespacesHeld: Int
        /// Bytes of the open copies' vectors.
        public var vectorBytes: Int
        /// Store versions announced by the change feed and not yet applied, summed over the copies.
        public var versionsBehind: Int64
        /// Whether the change feed is connected.
        public var changeFeedConnected: Bool
        /// Whether PostgreSQL answers, and since when it has not.
        public var availability: StorageAvailability = .available
    }

    public let location: PostgresLocation
    let configuration: KnowledgeBase.Configuration
    let options: Options
    /// The connection pool and the task that runs it; replaced by a fresh one when PostgreSQL
    /// comes back after an outage (see ``accessFailed(_:)``).
    let pool: Locked<(client: PostgresClient, running: Task<Void, Never>)>
    var client: PostgresClient { pool.withLock { $0.client } }
    let availabilityState = AvailabilityState()
    let logger: Logger
    let storeID: String
    let folder: CopiesFolder
    let copies = CopyRegistry()
    let mutexes = NamespaceMutexes()
    let writeGroups: WriteGroups
    let feedConnected = Locked(false)
    let tasks = Locked<[Task<Void, Never>]>([])

    /// A connection pool to `location`, running: at connection, and afresh when PostgreSQL
    /// answers again after an outage.
    static func startPool(_ location: PostgresLocation, options: Options, logger: Logger) -> (
        client: PostgresClient, running: Task<Void, Never>
    ) {
        let client = PostgresClient(
            configuration: location.clientConfiguration(
                connectTimeout: options.timeout, maximumConnections: options.maximumConnections,
                applicationName: options.applicationName),
            backgroundLogger: logger)
        return (client, Task { await client.run() })
    }

    /// Connects to the store, creating its tables in an empty database (once, however many nodes
    /// start together), and starts following its change feed.
    /// - Parameters:
    ///   - configuration: every namespace's configuration (embedder, clock, fact limit…); its
    ///     namespace is the one ``defaultKnowledgeBase()`` opens.
    /// - Throws: ``MnemoError/storageUnavailable(reason:)`` when the server cannot be reached,
    ///   ``MnemoError/databaseUnusable(path:reason:)`` for a refused login, a missing database
    ///   or a store of another schema version.
    public static func connect(
        _ location: PostgresLocation, configuration: KnowledgeBase.Configuration = .init(),
        options: Options = Options()
    ) async throws -> PostgresMemory {
        // postgres-nio logs through swift-log; a library prints nothing of its own.
        let logger = Logger(label: "mnemo.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        let (client, running) = startPool(location, options: options, logger: logger)
        do {
            let connectionConfiguration = try location.connectionConfiguration(connectTimeout: options.timeout)
            // A server starting on a busy machine may wait longer than a request.
            let storeID = try await withDeadline(max(options.timeout, .seconds(30)), "connecting to \(location)") {
                let connection = try await PostgresConnection.connect(
                    configuration: connectionConfiguration, id: 0, logger: logger)
                do {
                    let storeID = try await StoreSchema.migrate(connection, logger: logger)
                    try await connection.close()
                    return storeID
                } catch {
                    try? await connection.close()
                    throw error
                }
            }
            let memory = try PostgresMemory(
                location: location, configuration: configuration, options: options, client: client,
                running: running, logger: logger, storeID: storeID)
            do {
                try await memory.dropCopiesBehindTheLog()
            } catch {
                memory.folder.release()
                throw error
            }
            memory.tasks.withLock { $0 = [Task { [weak memory] in await memory?.followChanges() }] }
            return memory
        } catch {
            running.cancel()
            throw StoreErrors.mapped(error, location: location)
        }
    }

    private init(
        location: PostgresLocation, configuration: KnowledgeBase.Configuration, options: Options,
        client: PostgresClient, running: Task<Void, Never>, logger: Logger, storeID: String
    ) throws {
        self.location = location
        self.configuration = configuration
        self.options = options
        pool = Locked((client, running))
        self.logger = logger
        self.storeID = storeID
        writeGroups = WriteGroups(maximumGroup: options.maximumWriteGroup)
        folder = try CopiesFolder.claim(options.copiesDirectory)
    }

    /// Stops following the feed and closes the connections (and removes a temporary folder of
    /// copies).
    public func close() async {
        for task in tasks.withLock({ $0 }) { task.cancel() }
        pool.withLock { $0.running }.cancel()
        await copies.removeAll()
        folder.release()
    }

    /// The knowledge base of `namespace` on this node, caught up with every write the store
    /// has acknowledged.
    ///
    /// While PostgreSQL is unreachable (``availability``), a namespace this node holds comes
    /// as its copy is, without the check: it lacks at most the writes other nodes made since
    /// the node last heard from PostgreSQL, and its writes fail at once. Any other namespace
    /// throws ``MnemoError/storageUnavailable(reason:)`` at once.
    public func knowledgeBase(namespace: String) async throws -> KnowledgeBase {
        if let unavailable = unavailableError() {
            guard let copy = await copies.existing(namespace), copy.knownVersion.withLock({ $0 }) != nil else {
                throw unavailable
            }
            copy.usage.withLock { $0.lastUsed = Date() }
            return copy.knowledgeBase
        }
        let copy = try await copies.copy(of: namespace, opening: { try self.open(namespace) })
        copy.usage.withLock { $0.lastUsed = Date() }
        let refreshed: Bool
        do {
            refreshed = try await refresh(copy)
        } catch MnemoError.storageUnavailable(let reason) where copy.knownVersion.withLock({ $0 }) != nil {
            // The failure that showed PostgreSQL gone: the copy answers, as the next requests' will.
            guard unavailableError() != nil else { throw MnemoError.storageUnavailable(reason: reason) }
            return copy.knowledgeBase
        }
        if refreshed || copy.usage.withLock({ !$0.isCounted }) {
            await copy.countVectors()
            await evictBeyondCap(keeping: namespace)
        }
        return copy.knowledgeBase
    }

    /// The knowledge base of the configuration's namespace.
    public func defaultKnowledgeBase() async throws -> KnowledgeBase {
        try await knowledgeBase(namespace: configuration.namespace)
    }

    /// The namespaces the store holds.
    public func namespaces() async throws -> [String] {
        try await storeAccess("listing namespaces") { connection in
            var names: [String] = []
            for try await name in try await connection.query(
                "SELECT namespace FROM mnemo_namespace WHERE version > 0 ORDER BY namespace", logger: self.logger
            ).decode(String.self) {
                names.append(name)
            }
            return names
        }
    }

    /// What the node holds now.
    public func health() async -> Health {
        let held = await copies.all()
        let usage = held.map { $0.usage.withLock { $0 } }
        let dimension = configuration.embedder?.identity.dimension ?? 0
        return Health(
            namespacesHeld: held.count, vectorBytes: usage.reduce(0) { $0 + $1.vectors * dimension * 4 },
            versionsBehind: usage.reduce(0) { $0 + $1.versionsBehind },
            changeFeedConnected: feedConnected.withLock { $0 }, availability: availability)
    }

    /// Runs `body` on a pooled connection within the deadline, errors as ``MnemoError``s; with
    /// `namespace`, one at a time with every other catch-up or write of that namespace's copy.
    func storeAccess<T: Sendable>(
        _ what: String, serializing namespace: String? = nil,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        if let unavailable = unavailableError() { throw unavailable }
        let mutex = namespace.map { mutexes.mutex(for: $0) }
        do {
            let value = try await withDeadline(options.timeout, what, sharing: mutex?.copyWork) {
                guard let mutex else {
                    return try await self.client.withConnection { connection in try await body(connection) }
                }
                return try await mutex.withLock {
                    if let unavailable = self.unavailableError() { throw unavailable }
                    return try await self.client.withConnection { connection in try await body(connection) }
                }
            }
            availabilityState.reached()
            return value
        } catch {
            let mapped = StoreErrors.mapped(error, location: location)
            if case MnemoError.storageUnavailable(let reason) = mapped { await accessFailed(reason) }
            if let unavailable = unavailableError(), mapped is CancellationError { throw unavailable }
            throw mapped
        }
    }

    private func open(_ namespace: String) throws -> NamespaceCopy {
        var configuration = configuration
        configuration.namespace = namespace
        let path = copyPath(of: namespace)
        let link = CopyLink(memory: self, namespace: namespace)
        func openFile() throws -> KnowledgeBase {
            let kb = try KnowledgeBase(replicaAt: path, configuration: configuration, replication: link)
            try kb.replicaWriter.write { db in try NamespaceCopy.createStateTable(db) }
            return kb
        }
        var kb = try openFile()
        let state = try kb.replicaWriter.read { db in try NamespaceCopy.state(db) }
        if let state, state.store != storeID {
            // Another store's copy: start over.
            kb = try { () throws -> KnowledgeBase in
                NamespaceCopy.removeFiles(at: path)
                return try openFile()
            }()
        }
        let check = VersionCheck { [self] in
            try await storeAccess("reading \(namespace)") { connection in try await self.head(of: namespace, connection)
            }
        }
        return NamespaceCopy(namespace: namespace, path: path, knowledgeBase: kb, versionCheck: check)
    }

    func evictBeyondCap(keeping namespace: String) async {
        guard let cap = options.vectorCacheBytes, let dimension = configuration.embedder?.identity.dimension else {
            return
        }
        var held = await copies.all().map { ($0, $0.usage.withLock { $0 }) }
        var total = held.reduce(0) { $0 + $1.1.vectors * dimension * 4 }
        held.sort { $0.1.lastUsed < $1.1.lastUsed }
        for (copy, usage) in held where total > cap && copy.namespace != namespace {
            await copies.remove(copy.namespace)
            total -= usage.vectors * dimension * 4
        }
    }
}

/// The open copies, each opened once however many requests ask for it at once.
actor CopyRegistry {
    private var opening: [String: Task<NamespaceCopy, any Error>] = [:]

    func copy(of namespace: String, opening open: @escaping @Sendable () throws -> NamespaceCopy) async throws
        -> NamespaceCopy
    {
        if let task = opening[namespace] { return try await task.value }
        let task = Task { try open() }
        opening[namespace] = task
        do {
            return try await task.value
        } catch {
            opening[namespace] = nil
            throw error
        }
    }

    func existing(_ namespace: String) async -> NamespaceCopy? {
        try? await opening[namespace]?.value
    }

    func all() async -> [NamespaceCopy] {
        var copies: [NamespaceCopy] = []
        for task in opening.values { if let copy = try? await task.value { copies.append(copy) } }
        return copies
    }

    func remove(_ namespace: String) { opening[namespace] = nil }

    /// Deletes the files of `namespace`'s copy unless it is open or being opened (checked and
    /// done in one step of the registry, so no request opens the file meanwhile).
    func removeFilesIfClosed(_ namespace: String, at path: String) {
        guard opening[namespace] == nil else { return }
        NamespaceCopy.removeFiles(at: path)
    }

    func removeAll() { opening = [:] }
}

/// What a copy's knowledge base calls for its writes and for other namespaces.
struct CopyLink: StorageReplication {
    let memory: PostgresMemory
    let namespace: String

    func write<T: Sendable>(on base: any DatabaseWriter, _ updates: @Sendable (Database) throws -> T) async throws -> T
    {
        try await memory.write(namespace: namespace, on: base, updates)
    }

    func knowledgeBase(namespace: String) async throws -> KnowledgeBase {
        try await memory.knowledgeBase(namespace: namespace)
    }

    func namespaces() async throws -> [String] {
        try await memory.namespaces()
    }
}
