import Foundation
import Mnemo
import MnemoPostgres
import MnemoTestSupport
import PostgresNIO
import Testing

/// An erasure leaves no readable trace in the store's own table files: PostgreSQL's dead row
/// versions and the space vacuum frees keep a row's bytes, so the tables that held it are
/// rewritten before the erasure returns. The store's data directory is scanned as the SQLite
/// erasure tests scan the file (its write-ahead log, `pg_wal`, is outside the promise).
@Suite("Erasure in the store's table files", .enabled(if: TestStore.isAvailable, TestStore.skipNote))
struct StoreErasureTests {
    static let embedder = SeededEmbedder(dimension: 32)

    /// The folder of the database's table files, and a way to flush what PostgreSQL holds in
    /// memory to them.
    struct DatabaseFiles {
        var location: PostgresLocation

        var folder: URL {
            get async throws {
                let rows = try await TestStore.withConnection(location) { connection in
                    try await connection.query(
                        """
                        SELECT current_setting('data_directory'), oid::text FROM pg_database
                        WHERE datname = current_database()
                        """, logger: TestStore.logger
                    ).collect()
                }
                let (directory, oid) = try #require(rows.first).decode((String, String).self)
                return URL(fileURLWithPath: directory).appendingPathComponent("base/\(oid)")
            }
        }

        /// The files of the database holding `text`, after a checkpoint wrote every page out.
        func holding(_ text: String) async throws -> [String] {
            try await TestStore.withConnection(location) { connection in
                try await connection.query("CHECKPOINT", logger: TestStore.logger)
            }
            return NodeCopiesErasureTests.traces(of: text, in: try await folder)
        }
    }

    static func secret() -> String { "Diagnosed with condition \(UUID().uuidString)" }

    /// A node of a fresh database, whose namespace `alice` holds a secret.
    struct SecretStored {
        let files: DatabaseFiles
        let node: PostgresMemory
        let kb: KnowledgeBase
        let secret = StoreErasureTests.secret()
        let id: Int64

        init() async throws {
            files = DatabaseFiles(location: try await TestStore.freshDatabase())
            node = try await TestStore.node(embedder: StoreErasureTests.embedder, location: files.location)
            kb = try await node.knowledgeBase(namespace: "alice")
            id = try await kb.addFact(NewFact(content: secret, topicPath: "Health")).fact.id
        }
    }

    @Test func anErasedFactLeavesNoRowVersionInTheTableFiles() async throws {
        let stored = try await SecretStored()
        let (files, node, kb, secret, id) = (stored.files, stored.node, stored.kb, stored.secret, stored.id)
        try await kb.addFact(NewFact(content: "Walks the dog daily", topicPath: "Health"))
        // Each update leaves one more dead version of the row behind.
        try await kb.updateFact(id: id, FactUpdate(importance: .high))
        try await kb.updateFact(id: id, FactUpdate(confidence: 0.8))
        #expect(!(try await files.holding(secret)).isEmpty, "the scan finds a fact that is there")

        try await kb.eraseFacts(ids: [id])
        #expect(try await files.holding(secret) == [])
        #expect(try await kb.facts().map(\.content) == ["Walks the dog daily"])
        await node.close()
    }

    /// `VACUUM FULL` copies the row versions a running snapshot may see: here another session's
    /// (as another node's catch-up holds one), taken before the erasure and ended after it began.
    @Test func anErasureWaitsForTheSnapshotsTakenBeforeIt() async throws {
        let stored = try await SecretStored()
        let (files, kb, id) = (stored.files, stored.kb, stored.id)
        try await TestStore.withConnection(files.location) { reader in
            try await reader.query("BEGIN ISOLATION LEVEL REPEATABLE READ", logger: TestStore.logger)
            try await reader.query("SELECT count(*) FROM mnemo_namespace", logger: TestStore.logger)
            let erasure = Task { try await kb.eraseFacts(ids: [id]) }
            try await Task.sleep(for: .milliseconds(500))
            try await reader.query("COMMIT", logger: TestStore.logger)
            _ = try await erasure.value
        }
        #expect(try await files.holding(stored.secret) == [])
        await stored.node.close()
    }

    @Test func anErasedNamespaceLeavesNoRowVersionInTheTableFiles() async throws {
        let files = DatabaseFiles(location: try await TestStore.freshDatabase())
        let node = try await TestStore.node(embedder: Self.embedder, location: files.location)
        let (alice, bob) = (
            try await node.knowledgeBase(namespace: "alice"), try await node.knowledgeBase(namespace: "bob")
        )
        let secret = Self.secret()
        try await alice.addFact(NewFact(content: secret, topicPath: "Health"))
        try await bob.addFact(NewFact(content: "Walks the dog daily", topicPath: "Health"))
        #expect(!(try await files.holding(secret)).isEmpty)

        try await alice.eraseNamespace()
        #expect(try await files.holding(secret) == [])
        #expect(try await bob.facts().map(\.content) == ["Walks the dog daily"])
        await node.close()
    }
}
