import Foundation
import Mnemo
import NIOSSL
import PostgresNIO

/// Where a store lives: a `postgres://user[:password]@host[:port]/database` URL, as `--db` and
/// `MNEMO_DB` take it (`postgresql://` too; user, password and database percent-decoded).
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String

    /// Whether `text` names a PostgreSQL store rather than a database file.
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Parses a `postgres://` URL.
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` (field `db`) saying what is missing.
    public init(url text: String) throws {
        func invalid(_ reason: String) -> MnemoError {
            MnemoError.invalidInput(
                field: "db",
                reason: "\(reason) in \(Self.redacted(text)); expected postgres://user[:password]@host[:port]/database")
        }
        guard Self.isURL(text), let components = URLComponents(string: text) else {
            throw invalid("not a URL")
        }
        guard let host = components.host, !host.isEmpty else { throw invalid("no host") }
        guard let user = components.user, !user.isEmpty else { throw invalid("no user") }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else { throw invalid("no database") }
        if let port = components.port, !(1...65535).contains(port) { throw invalid("port \(port) out of range") }
        self.host = host
        self.port = components.port ?? 5432
        self.username = user.removingPercentEncoding ?? user
        self.password = components.password.map { $0.removingPercentEncoding ?? $0 }
        self.database = database.removingPercentEncoding ?? database
    }

    /// The URL without its password, for messages and logs.
    public var description: String {
        "postgres://\(username)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)"
    }

    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? text
    }

    /// The client configuration: no TLS on loopback, TLS preferred elsewhere; connection attempts
    /// give up after `connectTimeout`, so a stopped server fails requests fast.
    func clientConfiguration(connectTimeout: Duration, maximumConnections: Int, applicationName: String)
        -> PostgresClient.Configuration
    {
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database,
            tls: isLoopback ? .disable : .prefer(.makeClientConfiguration()))
        configuration.options.connectTimeout = connectTimeout
        configuration.options.maximumConnections = maximumConnections
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        return configuration
    }

    /// The same for one connection: the first, which checks the login and migrates, so that a
    /// wrong password or a missing database is reported at once instead of retried by the pool.
    func connectionConfiguration(connectTimeout: Duration) throws -> PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database,
            tls: isLoopback ? .disable : .prefer(try NIOSSLContext(configuration: .makeClientConfiguration())))
        configuration.options.connectTimeout = .nanoseconds(Int64(connectTimeout.components.seconds) * 1_000_000_000)
        return configuration
    }

    var isLoopback: Bool { ["127.0.0.1", "localhost", "::1"].contains(host) }
}
