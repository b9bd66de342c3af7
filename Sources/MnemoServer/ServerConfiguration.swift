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
    /// What the node holds of a shared store (PostgreSQL), for `/healthz` and `/metrics`;
    /// `nil` for a database file.
    package var storageHealth: (@Sendable () async -> StorageHealth)?
    /// Whether the shared store is reachable, pushed by the store; `nil` for a database file.
    /// While it is not, `/healthz` answers 503 and answers from the node's copies are marked stale.
    package var storageStatus: StorageStatus?
    /// Whether `/ui`, the memory page, is served, and whether it may change anything.
    package var page: PageMode
    /// How long a write of an event stream (`/api/events`, `/ui/events`) may wait for a client
    /// that reads nothing before its connection is closed (see ``StalledStreams``).
    package var eventStreamStallLimit: Duration

    package init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        maximumBodySize: Int = 1 << 20,
        defaultNamespace: String = KnowledgeBase.defaultNamespace,
        maximumPageSize: Int = 500,
        storageHealth: (@Sendable () async -> StorageHealth)? = nil,
        storageStatus: StorageStatus? = nil,
        page: PageMode = .on,
        eventStreamStallLimit: Duration = .seconds(30)
    ) {
        self.page = page
        self.eventStreamStallLimit = eventStreamStallLimit
        self.storageHealth = storageHealth
        self.storageStatus = storageStatus
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

/// A node's share of a PostgreSQL store: whether it reaches it (`state`, and while it does not,
/// since when, why, and how many seconds behind its copies may be), the namespaces whose copies
/// it holds, their vectors' bytes, how many store versions announced by the change feed it has
/// not applied yet, and whether the feed is connected.
package struct StorageHealth: Sendable, Codable, Equatable {
    package var backend = "postgresql"
    /// `available` or `unavailable`.
    package var state = "available"
    package var unavailableSince: Date?
    package var staleSeconds: Int?
    package var reason: String?
    package var namespacesHeld: Int
    package var vectorBytes: Int
    package var versionsBehind: Int64
    package var changeFeedConnected: Bool

    package init(
        namespacesHeld: Int, vectorBytes: Int, versionsBehind: Int64, changeFeedConnected: Bool,
        status: StorageAvailability = .available, now: Date = Date()
    ) {
        self.namespacesHeld = namespacesHeld
        self.vectorBytes = vectorBytes
        self.versionsBehind = versionsBehind
        self.changeFeedConnected = changeFeedConnected
        if case .unavailable(let since, _, let reason) = status {
            state = "unavailable"
            unavailableSince = since
            staleSeconds = status.staleSeconds(at: now)
            self.reason = reason
        }
    }

    /// Whether the store answers.
    package var isAvailable: Bool { state == "available" }

    enum CodingKeys: String, CodingKey {
        case backend, state, reason
        case unavailableSince = "unavailable_since"
        case staleSeconds = "stale_seconds"
        case namespacesHeld = "namespaces_held"
        case vectorBytes = "vector_bytes"
        case versionsBehind = "versions_behind"
        case changeFeedConnected = "change_feed_connected"
    }

    /// The same in Prometheus' text format.
    package var prometheusText: String {
        """
        # HELP mnemo_namespaces_held Namespaces whose copies this node holds.
        # TYPE mnemo_namespaces_held gauge
        mnemo_namespaces_held \(namespacesHeld)
        # HELP mnemo_vector_bytes Bytes of the held copies' vectors.
        # TYPE mnemo_vector_bytes gauge
        mnemo_vector_bytes \(vectorBytes)
        # HELP mnemo_versions_behind Store versions announced and not yet applied.
        # TYPE mnemo_versions_behind gauge
        mnemo_versions_behind \(versionsBehind)
        # HELP mnemo_storage_available Whether the store answers (1) or not (0).
        # TYPE mnemo_storage_available gauge
        mnemo_storage_available \(isAvailable ? 1 : 0)
        # HELP mnemo_change_feed_connected Whether the change feed is connected (1) or not (0).
        # TYPE mnemo_change_feed_connected gauge
        mnemo_change_feed_connected \(changeFeedConnected ? 1 : 0)

        """
    }
}
