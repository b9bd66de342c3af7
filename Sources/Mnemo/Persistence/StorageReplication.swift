import GRDB

/// A shared store of which this knowledge base's database is one node's copy: each write runs on
/// the copy and is recorded in the store in one step, once the copy has caught up with every
/// write the store acknowledged (so two nodes writing one namespace are serialised and the engine
/// sees what the other wrote). `MnemoPostgres` implements it over PostgreSQL.
package protocol StorageReplication: Sendable {
    /// Runs `updates` in a write transaction of `base` (the node's copy of the namespace) and
    /// records its changes in the store; throws, storing nothing, when the store cannot.
    func write<T: Sendable>(on base: any DatabaseWriter, _ updates: @Sendable (Database) throws -> T) async throws -> T

    /// The knowledge base of another namespace of the store, caught up.
    func knowledgeBase(namespace: String) async throws -> KnowledgeBase

    /// The namespaces the store holds.
    func namespaces() async throws -> [String]
}

extension KnowledgeBase {
    /// Opens (creating if needed) one node's copy of a namespace of a shared store, in the file at
    /// `path`: every write is recorded through `replication`.
    package convenience init(
        replicaAt path: String, configuration: Configuration, replication: any StorageReplication
    ) throws {
        let pool: DatabasePool
        do {
            // A write's transaction stays open until the store committed it (see
            // `StorageReplication.write(on:_:)`), across two accesses of the writer.
            var database = configuration.preparedDatabaseConfiguration()
            database.allowsUnsafeTransactions = true
            pool = try DatabaseFactory.openPool(atPath: path, configuration: database)
        } catch {
            throw MnemoError(error)
        }
        try self.init(migrating: pool, configuration: configuration, replication: replication)
    }

    /// The copy's GRDB writer, for the replication that keeps it.
    package var replicaWriter: any DatabaseWriter { writer.base }

    /// The name of the last schema migration this version of Mnemo runs: two nodes of a shared
    /// store must agree on it, since each copy's tables are made by its own migrations.
    package static var schemaIdentity: String { Schema.migrator.migrations.last ?? "" }

    /// The identities of the schemas before this one: a store made by an earlier version is
    /// taken over when its nodes are upgraded.
    package static var earlierSchemaIdentities: [String] { Array(Schema.migrator.migrations.dropLast()) }
}
