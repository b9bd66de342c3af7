import Foundation
import Logging
import Mnemo
import PostgresNIO

/// The store's tables in PostgreSQL.
///
/// - `mnemo_meta`: the store's schema version, the Mnemo schema its copies are made with, the
///   version of the change format its rows and changes are written in (`RowChange.format`), and
///   an id that tells a node's copies of this store from those of another.
/// - `mnemo_namespace`: one row per namespace: its version (one more per acknowledged write)
///   and the lowest version from which the change log is complete (`log_floor`).
/// - `mnemo_row`: every row of every namespace as it is now: the system of record, from which a
///   node loads a namespace.
/// - `mnemo_change`: recent changes in order (version, position), from which a node catches a
///   copy up; trimmed as it grows, and at once after an erasure (erased text leaves no trace).
/// - `mnemo_id_max`: the largest id each namespace's tables hold (see `RowIDs`): a write numbers
///   new rows above the largest of all namespaces, as one file numbers them across its namespaces.
enum StoreSchema {
    static let version = 2
    /// The advisory lock that makes nodes starting together migrate one at a time.
    static let migrationLock: Int64 = 0x6D6E_656D_6F00_0001

    static let statements: [PostgresQuery] =
        [
            """
            CREATE TABLE mnemo_namespace (
                namespace text PRIMARY KEY,
                version bigint NOT NULL DEFAULT 0,
                log_floor bigint NOT NULL DEFAULT 0)
            """,
            """
            CREATE TABLE mnemo_row (
                namespace text NOT NULL,
                table_name text NOT NULL,
                row_id bigint NOT NULL,
                row_values text NOT NULL,
                PRIMARY KEY (namespace, table_name, row_id))
            """,
            """
            CREATE TABLE mnemo_change (
                namespace text NOT NULL,
                version bigint NOT NULL,
                position int NOT NULL,
                table_name text NOT NULL,
                kind char(1) NOT NULL,
                row_id bigint NOT NULL,
                new_row_id bigint NOT NULL,
                row_values text NOT NULL,
                PRIMARY KEY (namespace, version, position))
            """,
            "CREATE INDEX mnemo_change_by_namespace ON mnemo_change (namespace, version)",
        ] + idMaxStatements

    /// Added by version 2.
    static let idMaxStatements: [PostgresQuery] = [
        """
        CREATE TABLE mnemo_id_max (
            namespace text NOT NULL,
            table_name text NOT NULL,
            largest bigint NOT NULL,
            PRIMARY KEY (namespace, table_name))
        """,
        "CREATE INDEX mnemo_id_max_by_table ON mnemo_id_max (table_name, largest)",
    ]

    /// Creates the tables in an empty database, or checks those of an existing store: run by
    /// every node at start, one at a time (an advisory lock), so ten nodes starting together
    /// create them once.
    /// - Returns: the store's id.
    static func migrate(_ connection: PostgresConnection, logger: Logger) async throws -> String {
        try await connection.query("SELECT pg_advisory_lock(\(migrationLock))", logger: logger)
        do {
            let id = try await migrateLocked(connection, logger: logger)
            try await connection.query("SELECT pg_advisory_unlock(\(migrationLock))", logger: logger)
            return id
        } catch {
            _ = try? await connection.query("SELECT pg_advisory_unlock(\(migrationLock))", logger: logger)
            throw error
        }
    }

    private static func migrateLocked(_ connection: PostgresConnection, logger: Logger) async throws -> String {
        try await connection.query(
            "CREATE TABLE IF NOT EXISTS mnemo_meta (key text PRIMARY KEY, value text NOT NULL)", logger: logger)
        var meta: [String: String] = [:]
        for try await (key, value) in try await connection.query("SELECT key, value FROM mnemo_meta", logger: logger)
            .decode((String, String).self)
        {
            meta[key] = value
        }
        let engine = KnowledgeBase.schemaIdentity
        if meta["schema"] == "1" {
            try await upgradeFrom1(connection, logger: logger)
            meta["schema"] = String(version)
        }
        if let stored = meta["schema"] {
            guard stored == String(version) else {
                throw MnemoError.databaseUnusable(
                    path: "PostgreSQL",
                    reason:
                        "the store has schema version \(stored), this mnemo knows version \(version); use the mnemo that made it"
                )
            }
            try await checkChangeFormat(meta["change_format"], connection, logger: logger)
            if let earlier = meta["engine"], earlier != engine, KnowledgeBase.earlierSchemaIdentities.contains(earlier)
            {
                // The copies are made anew by every node from the store's rows; the tables a later
                // schema adds start empty. Nodes of the earlier version must be stopped first.
                try await connection.query(
                    "UPDATE mnemo_meta SET value = \(engine) WHERE key = 'engine'", logger: logger)
                meta["engine"] = engine
            }
            guard meta["engine"] == engine else {
                throw MnemoError.databaseUnusable(
                    path: "PostgreSQL",
                    reason:
                        "the store's copies are made with Mnemo schema \(meta["engine"] ?? "?"), this mnemo makes \(engine); all nodes must run the same version"
                )
            }
            return meta["store"] ?? ""
        }
        let store = UUID().uuidString.lowercased()
        try await connection.query("BEGIN", logger: logger)
        do {
            for statement in statements { try await connection.query(statement, logger: logger) }
            let schema = String(version)
            try await connection.query(
                """
                INSERT INTO mnemo_meta (key, value) VALUES ('schema', \(schema)), ('engine', \(engine)), ('store', \(store)),
                    ('change_format', \(String(RowChange.format)))
                """, logger: logger)
            try await connection.query("COMMIT", logger: logger)
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
        return store
    }

    /// Refuses a store whose rows are in a change format this Mnemo does not read; a store made
    /// before the format was recorded is in the first one, which is noted.
    private static func checkChangeFormat(_ stored: String?, _ connection: PostgresConnection, logger: Logger)
        async throws
    {
        if stored == nil {
            try await connection.query(
                "INSERT INTO mnemo_meta (key, value) VALUES ('change_format', '1') ON CONFLICT (key) DO NOTHING",
                logger: logger)
        }
        let format = stored ?? "1"
        guard format == String(RowChange.format) else { throw changeFormatRefused(format) }
    }

    private static func changeFormatRefused(_ stored: String) -> MnemoError {
        MnemoError.databaseUnusable(
            path: "PostgreSQL",
            reason:
                "the store's rows are in change format \(stored), this mnemo reads format \(RowChange.format); use the mnemo that made it"
        )
    }

    /// Version 2 adds `mnemo_id_max`, filled from the rows' ids (a fact's largest id is its
    /// table's: ids its history and tombstones remember above it are rare enough to leave).
    private static func upgradeFrom1(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("BEGIN", logger: logger)
        do {
            for statement in idMaxStatements { try await connection.query(statement, logger: logger) }
            try await connection.query(
                """
                INSERT INTO mnemo_id_max (namespace, table_name, largest)
                SELECT namespace, table_name, max(row_id) FROM mnemo_row
                WHERE table_name = ANY(\(RowIDs.tables)::text[]) GROUP BY namespace, table_name
                """, logger: logger)
            try await connection.query(
                "UPDATE mnemo_meta SET value = \(String(version)) WHERE key = 'schema'", logger: logger)
            try await connection.query("COMMIT", logger: logger)
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }
}
