import Foundation
import GRDB

extension KnowledgeBase {
    /// How a knowledge base opens its database and whose memory it serves.
    ///
    /// ```swift
    /// var configuration = KnowledgeBase.Configuration(namespace: "user-42", embedder: HashingEmbedder())
    /// configuration.observesSuspensionNotifications = true // database in an App Group container
    /// let kb = try KnowledgeBase(
    ///     url: containerURL.appendingPathComponent("memory.sqlite"),
    ///     configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// The namespace every operation reads and writes (see ``KnowledgeBase/inNamespace(_:)``).
        public var namespace: String
        /// Enables semantic and hybrid search and near-duplicate merging; `nil` for a text-only
        /// knowledge base.
        public var embedder: (any Embedder)?
        /// Opens a database whose vectors were made by another model, in order to call
        /// ``KnowledgeBase/reembed(batchSize:progress:)``; semantic search is meaningless until
        /// it has run. Otherwise such a database is a
        /// ``MnemoError/Conflict/embedderMismatch(stored:given:)``.
        public var acceptsOtherEmbedder: Bool
        /// Lets a knowledge base without an ``embedder`` add facts, and change their content, in
        /// a database that records an embedding model (one whose facts have vectors). Such a
        /// fact has no vector: semantic search and near-duplicate merging miss it until a
        /// knowledge base with the model calls ``KnowledgeBase/embedFactsWithoutVectors(batchSize:progress:)``.
        /// Otherwise that write throws ``MnemoError/Conflict/embedderMissing(stored:)`` and
        /// stores nothing, so that a memory is never degraded without the app knowing.
        /// Reading, deleting and every other write need no embedder either way.
        public var acceptsFactsWithoutVectors: Bool
        /// How many bytes of the file SQLite reads through a memory map instead of `read()`
        /// calls. Full-text search at 100k facts is about twice as fast with the map, but an
        /// I/O error on a mapped page (a removed volume, a file truncated by another process)
        /// is a `SIGBUS` that kills the process instead of an error. 0 turns it off. The
        /// default, ``defaultMmapSize``, is 1 GiB on macOS and Linux and 0 on iOS, tvOS,
        /// watchOS and visionOS, where a database often lives in a shared container.
        public var mmapSize: Int
        /// How long a write waits for another connection's or process's lock before failing
        /// with a busy ``MnemoError/storageFailure(_:)``.
        public var busyTimeout: TimeInterval
        /// Lets GRDB suspend the database when an iOS app is about to be suspended, and resume
        /// it on demand, so the system does not kill the app (`0xdead10cc`) for holding a lock on
        /// a file in an App Group container that an extension also opens. When true, the app
        /// posts GRDB's `Database.suspendNotification` from
        /// `applicationDidEnterBackground` and `Database.resumeNotification` when it returns to
        /// the foreground; see GRDB's "Sharing a Database" guide. Off by default.
        public var observesSuspensionNotifications: Bool
        /// How long undo records are kept: ``KnowledgeBase/purge(now:undoOlderThan:)`` drops the
        /// operations older than this (they can no longer be undone, and the contents their
        /// snapshots hold leave the file). 30 days by default.
        public var undoRetention: TimeInterval
        /// How long the change feed keeps its events: ``KnowledgeBase/purge(now:undoOlderThan:)``
        /// prunes older ones, but never a namespace's newest
        /// ``minimumRetainedChanges``. A follower whose cursor is older gets
        /// ``MnemoError/cursorExpired(namespace:)`` and reads the memory again. 30 days by default.
        public var changeRetention: TimeInterval = Configuration.defaultUndoRetention
        /// The most facts a namespace may hold, active and inactive, or `nil` (the default) for
        /// no limit. At the limit, a write that would add a new fact is refused with
        /// ``MnemoError/quotaExceeded(limit:)`` or makes room, as ``quotaPolicy`` says; repeats
        /// and merges always pass. See ``QuotaPolicy`` for what counts. The limit applies to
        /// every namespace the knowledge base writes to; ``KnowledgeBase/withFactLimit(_:policy:)``
        /// gives one namespace (a user's plan) another.
        public var factLimit: Int?
        /// What a write does at ``factLimit``: refuse (the default) or evict the least valuable
        /// facts.
        public var quotaPolicy: QuotaPolicy
        /// The GRDB configuration the file is opened with: set a passphrase hook, a label, a
        /// read-only flag or `prepareDatabase` steps of your own here. Mnemo adds its own
        /// steps (``KnowledgeBase/prepare(_:mmapSize:)``) after yours.
        public var database: GRDB.Configuration
        /// The clock: what "now" is when a fact is stored without a date, when a relative time
        /// filter ("the last 7 days") is resolved, and when a context picks recent facts
        /// (``KnowledgeBase/context(for:budget:options:)``). `Date.init` by default; tests pass a
        /// fixed or stepping clock.
        public var now: @Sendable () -> Date

        /// ``mmapSize``'s default: 1 GiB on macOS and Linux, 0 (no map) on iOS, tvOS, watchOS
        /// and visionOS.
        public static var defaultMmapSize: Int {
            #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
                0
            #else
                1 << 30
            #endif
        }

        /// Creates a configuration; every argument has a default.
        public init(
            namespace: String = KnowledgeBase.defaultNamespace,
            embedder: (any Embedder)? = nil,
            acceptsOtherEmbedder: Bool = false,
            acceptsFactsWithoutVectors: Bool = false,
            mmapSize: Int = Configuration.defaultMmapSize,
            busyTimeout: TimeInterval = 10,
            observesSuspensionNotifications: Bool = false,
            undoRetention: TimeInterval = Configuration.defaultUndoRetention,
            factLimit: Int? = nil,
            quotaPolicy: QuotaPolicy = .reject,
            database: GRDB.Configuration = GRDB.Configuration(),
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.namespace = namespace
            self.embedder = embedder
            self.acceptsOtherEmbedder = acceptsOtherEmbedder
            self.acceptsFactsWithoutVectors = acceptsFactsWithoutVectors
            self.mmapSize = mmapSize
            self.busyTimeout = busyTimeout
            self.observesSuspensionNotifications = observesSuspensionNotifications
            self.undoRetention = undoRetention
            self.factLimit = factLimit
            self.quotaPolicy = quotaPolicy
            self.database = database
            self.now = now
        }

        /// The events of a namespace's change feed that are kept whatever their age.
        public static let minimumRetainedChanges = 10_000

        /// ``undoRetention``'s default: 30 days.
        public static let defaultUndoRetention: TimeInterval = 30 * 86_400

        /// ``database`` with Mnemo's settings added.
        func preparedDatabaseConfiguration() -> GRDB.Configuration {
            var configuration = database
            configuration.busyMode = .timeout(busyTimeout)
            configuration.observesSuspensionNotifications = observesSuspensionNotifications
            DatabaseFactory.prepare(&configuration, mmapSize: mmapSize)
            return configuration
        }
    }
}
