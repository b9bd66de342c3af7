import Foundation
import Logging
import Mnemo
import MnemoPostgres
import PostgresNIO
import Testing

/// The PostgreSQL the tests use: `MNEMO_TEST_POSTGRES_URL` (`.ci/run` starts a throwaway
/// cluster with Scripts/postgres/cluster.sh and sets it). Without it the tests that need it are
/// skipped, except under CI, where `PostgresAvailabilityTests` fails.
package enum TestStore {
    package static let url = ProcessInfo.processInfo.environment["MNEMO_TEST_POSTGRES_URL"]
    package static let isAvailable = url != nil
    package static let skipNote: Comment =
        "set MNEMO_TEST_POSTGRES_URL (Scripts/postgres/cluster.sh start DIR PORT prints one)"

    package static var location: PostgresLocation {
        get throws { try PostgresLocation(url: url ?? "") }
    }

    /// A namespace no other test uses, so the tests share one database.
    package static func namespace(_ label: String = "t") -> String { "\(label)-\(UUID().uuidString.prefix(8))" }

    /// A node on the test database.
    package static func node(
        embedder: (any Embedder)? = nil, namespace: String = KnowledgeBase.defaultNamespace,
        location: PostgresLocation? = nil, options: PostgresMemory.Options = TestStore.options
    ) async throws -> PostgresMemory {
        try await PostgresMemory.connect(
            location ?? self.location,
            configuration: KnowledgeBase.Configuration(namespace: namespace, embedder: embedder), options: options)
    }

    /// A new, empty database on the test server (for what must start from nothing).
    package static func freshDatabase() async throws -> PostgresLocation {
        var location = try location
        let name = "mnemo_test_\(UUID().uuidString.prefix(8).lowercased())"
        try await withConnection(location) { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        }
        location.database = name
        return location
    }

    /// Runs `body` on one plain connection (for checks of the store's tables).
    @discardableResult
    package static func withConnection<T: Sendable>(
        _ location: PostgresLocation? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let location = try location ?? self.location
        let configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.username, password: location.password,
            database: location.database, tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            let value = try await body(connection)
            try await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// A deadline for the whole test suite's load, not the server's five seconds: every suite
    /// runs at once on few cores, and the synchronous tests that run processes each hold one of
    /// Swift concurrency's threads (two here) while they run, so that in the suite's first
    /// minute or two every other task, a connection's included, can wait that long.
    package static var options: PostgresMemory.Options {
        var options = PostgresMemory.Options()
        options.timeout = .seconds(240)
        return options
    }

    package static let logger = Logger(label: "mnemo.tests", factory: { _ in SwiftLogNoOpLogHandler() })
}
