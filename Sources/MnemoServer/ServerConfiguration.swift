import Foundation
import Mnemo

/// How `mnemo serve` listens and whom it serves.
package struct ServerConfiguration: Sendable {
    /// The interface to bind; `127.0.0.1` keeps the server on this machine.
    package var host: String
    package var port: Int
    /// The largest request body accepted; larger ones get 413.
    package var maximumBodySize: Int
    /// The namespace of requests that name no user when authentication is off.
    package var defaultNamespace: String
    /// The most results a search or listing returns in one page.
    package var maximumPageSize: Int

    package init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        maximumBodySize: Int = 1 << 20,
        defaultNamespace: String = KnowledgeBase.defaultNamespace,
        maximumPageSize: Int = 500
    ) {
        self.host = host
        self.port = port
        self.maximumBodySize = maximumBodySize
        self.defaultNamespace = defaultNamespace
        self.maximumPageSize = maximumPageSize
    }

    /// Whether `host` only accepts connections from this machine.
    package var isLoopback: Bool {
        let host = host.lowercased()
        return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}
