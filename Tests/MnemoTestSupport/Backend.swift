import Foundation
import Mnemo
import MnemoPostgres
import PostgresNIO
import Testing

/// Where a test's knowledge base keeps its facts: the same engine behaves alike on both, so the
/// tests about the engine (not about SQLite files) run on each (`@Test(arguments:
/// Backend.available)`, in a suite with the ``StoresClosed`` trait).
package enum Backend: String, Sendable, CaseIterable, CustomTestStringConvertible {
    /// An in-memory SQLite database.
    case sqlite
    /// A node of `MNEMO_TEST_POSTGRES_URL`, on a database of its own that is dropped after the
    /// test: a namespace's rows in PostgreSQL, the node's copy in a temporary folder.
    case postgres

    /// SQLite, and PostgreSQL when the tests have one (``TestStore``).
    package static var available: [Backend] { TestStore.isAvailable ? [.sqlite, .postgres] : [.sqlite] }

    package var testDescription: String { rawValue }

    /// An empty knowledge base.
    package func empty(
        namespace: String = KnowledgeBase.defaultNamespace, embedder: (any Embedder)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> KnowledgeBase {
        switch self {
        case .sqlite:
            return try KnowledgeBase.inMemory(namespace: namespace, embedder: embedder, now: now)
        case .postgres:
            guard let stores = OpenStores.current else {
                preconditionFailure("a test on PostgreSQL needs the StoresClosed trait on its suite")
            }
            let location = try await TestStore.freshDatabase()
            let memory = try await PostgresMemory.connect(
                location,
                configuration: KnowledgeBase.Configuration(namespace: namespace, embedder: embedder, now: now),
                options: Self.postgresOptions)
            stores.add(memory, database: location.database)
            return try await memory.knowledgeBase(namespace: namespace)
        }
    }

    /// Few connections per node: many tests run at once on one server.
    static var postgresOptions: PostgresMemory.Options {
        var options = TestStore.options
        options.maximumConnections = 2
        return options
    }

    /// A knowledge base with the given facts added in order.
    package func with(_ facts: [NewFact], namespace: String = KnowledgeBase.defaultNamespace) async throws
        -> KnowledgeBase
    {
        let kb = try await empty(namespace: namespace)
        for fact in facts { try await kb.addFact(fact) }
        return kb
    }
}

/// Closes the PostgreSQL nodes a test opened and drops their databases when it ends, so that
/// a suite's tests do not run the server out of connections.
package struct StoresClosed: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil else { return try await function() }
        let stores = OpenStores()
        do {
            try await OpenStores.$current.withValue(stores) { try await function() }
        } catch {
            await stores.closeAll()
            throw error
        }
        await stores.closeAll()
    }
}

extension Trait where Self == StoresClosed {
    /// Closes the PostgreSQL nodes each test opened (see ``Backend/postgres``).
    package static var storesClosed: Self { StoresClosed() }
}

/// The nodes one test opened.
final class OpenStores: Sendable {
    @TaskLocal static var current: OpenStores?

    private let opened = Locked<[(memory: PostgresMemory, database: String)]>([])

    func add(_ memory: PostgresMemory, database: String) { opened.withLock { $0.append((memory, database)) } }

    func closeAll() async {
        let stores = opened.withLock { list -> [(memory: PostgresMemory, database: String)] in
            let taken = list
            list = []
            return taken
        }
        for store in stores {
            await store.memory.close()
            let drop = PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(store.database) WITH (FORCE)")
            _ = try? await TestStore.withConnection { connection in
                try await connection.query(drop, logger: TestStore.logger)
            }
        }
    }
}
