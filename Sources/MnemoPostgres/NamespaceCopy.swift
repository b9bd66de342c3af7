import Foundation
import GRDB
import Mnemo

/// One node's copy of one namespace: a SQLite file that the engine reads and writes as it does
/// any knowledge base, and the version of the store it holds.
final class NamespaceCopy: Sendable {
    let namespace: String
    let path: String
    let knowledgeBase: KnowledgeBase
    /// Use order and size for the vector cache's eviction.
    let usage = Locked(Usage())
    /// The store version the copy is known to hold, acknowledged: a request whose check of the
    /// store finds this version runs without waiting for the copy's lock. `nil` until the first
    /// catch-up.
    let knownVersion = Locked<Int64?>(nil)

    struct Usage {
        var lastUsed = Date()
        var vectors = 0
        var isCounted = false
        var versionsBehind: Int64 = 0
    }

    /// The store version checks of the requests for this namespace, shared when they overlap.
    let versionCheck: VersionCheck

    init(namespace: String, path: String, knowledgeBase: KnowledgeBase, versionCheck: VersionCheck) {
        self.namespace = namespace
        self.path = path
        self.knowledgeBase = knowledgeBase
        self.versionCheck = versionCheck
    }

    var writer: any DatabaseWriter { knowledgeBase.replicaWriter }

    /// The store and the store version the copy holds. It is written in the transaction of the
    /// write or catch-up that brings the copy there, so it never says more than the copy holds.
    struct State: Equatable {
        var store: String
        var version: Int64
    }

    static func createStateTable(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE IF NOT EXISTS copy_state (
                    id INTEGER PRIMARY KEY CHECK (id = 1), store TEXT NOT NULL, version INTEGER NOT NULL)
                """)
    }

    static func state(_ db: Database) throws -> State? {
        try Row.fetchOne(db, sql: "SELECT store, version FROM copy_state").map { State(store: $0[0], version: $0[1]) }
    }

    /// The state of the copy in the file at `path`, read before the copy is opened; `nil` when
    /// the file holds none or cannot be read.
    static func storedState(at path: String) -> State? {
        guard let queue = try? DatabaseQueue(path: path) else { return nil }
        defer { try? queue.close() }
        let state = try? queue.read { db in try db.tableExists("copy_state") ? try Self.state(db) : nil }
        return state ?? nil
    }

    static func setState(_ state: State, _ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO copy_state (id, store, version) VALUES (1, ?, ?)",
            arguments: [state.store, state.version])
    }

    /// The number of stored vectors, for the cache's size.
    func countVectors() async {
        let count =
            (try? await writer.readReleasingFirst { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM fact_embedding")
            })
        usage.withLock {
            $0.vectors = (count ?? nil) ?? 0
            $0.isCounted = true
        }
    }

    /// The file's name for a namespace: readable where it can be, unique always.
    static func fileName(for namespace: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in namespace.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let readable = String(
            namespace.unicodeScalars.prefix(40).map {
                $0.properties.isAlphabetic || ("0"..."9").contains($0) ? Character($0) : "_"
            })
        return "\(readable)-\(String(hash, radix: 16)).sqlite"
    }

    /// Deletes the copy's files (the store still holds everything).
    static func removeFiles(at path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
