import Foundation

/// Whether a node of a shared store (`MnemoPostgres`) reaches it: what the store reports and
/// what a server shows on `/healthz`, on its answers (marked stale) and on its event streams.
public enum StorageAvailability: Sendable, Equatable, Codable {
    case available
    /// The store failed at `since` and has not answered a probe since. The node's copies hold
    /// every write acknowledged up to `lastContact`, the last time the node heard from the
    /// store; writes acknowledged by other nodes after it may be missing.
    case unavailable(since: Date, lastContact: Date, reason: String)
}
