import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

/// The schema a fresh file gets is pinned in `Snapshots/schema.sql` beside this file: a change
/// to it shows as a diff of that file, made by a new migration, never by a change to a shipped
/// one (migrations are literal SQL and read no live code).
///
/// After a deliberate schema change (a new migration), write the file anew with
/// `MNEMO_UPDATE_SNAPSHOTS=1 swift test -c release --filter SchemaSnapshotTests` and commit it.
@Suite struct SchemaSnapshotTests {
    static let snapshot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Snapshots/schema.sql")

    /// The migrations' names, then every table, index, trigger and view of a fresh file with its
    /// SQL, sorted by kind and name.
    static func freshSchema() async throws -> String {
        let path = try TestKnowledgeBase.temporaryPath()
        _ = try KnowledgeBase(path: path)
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try await queue.read { db in
            var text = "-- The schema of a fresh Mnemo file (SchemaSnapshotTests).\n\n"
            for migration in try Schema.migrator.appliedIdentifiers(db).sorted(by: Self.migrationOrder) {
                text += "-- migration: \(migration)\n"
            }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT type, name, sql FROM sqlite_master
                    WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
                    ORDER BY type, name
                    """)
            for row in rows {
                let (type, name, sql): (String, String, String) = (row[0], row[1], row[2])
                text += "\n-- \(type) \(name)\n\(sql);\n"
            }
            return text
        }
    }

    /// Migrations in the order the migrator registers them.
    private static func migrationOrder(_ a: String, _ b: String) -> Bool {
        let order = Schema.migrator.migrations
        return (order.firstIndex(of: a) ?? .max) < (order.firstIndex(of: b) ?? .max)
    }

    @Test func aFreshFileHasThePinnedSchema() async throws {
        let schema = try await Self.freshSchema()
        if ProcessInfo.processInfo.environment["MNEMO_UPDATE_SNAPSHOTS"] != nil {
            try schema.write(to: Self.snapshot, atomically: true, encoding: .utf8)
        }
        let pinned = try String(contentsOf: Self.snapshot, encoding: .utf8)
        if schema != pinned {
            let written = FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-schema.sql")
            try schema.write(to: written, atomically: true, encoding: .utf8)
            Issue.record(
                """
                A fresh file's schema differs from \(Self.snapshot.path): see \
                diff -u \(Self.snapshot.path) \(written.path). A schema change is a new migration; \
                rewrite the snapshot with MNEMO_UPDATE_SNAPSHOTS=1.
                """)
        }
    }

    /// Undo reads row images with the expressions of `TrackedTable`; the triggers that record
    /// them are frozen SQL in migrations. A column added to a tracked table without a migration
    /// that recreates its triggers would make the two disagree.
    @Test func theTrackedTablesAgreeWithTheirTriggers() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        _ = try KnowledgeBase(path: path)
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try await queue.read { db in
            for table in TrackedTable.all {
                let trigger = try String.fetchOne(
                    db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?",
                    arguments: ["\(table.name)_log_update"])
                #expect(trigger?.contains(table.image(of: "old")) == true, "\(table.name)")
            }
        }
    }
}
