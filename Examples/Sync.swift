import Foundation
import Mnemo

/// Sync's example (the "Syncing a device" article, ``URLSessionSyncTransport``'s
/// documentation), compiled with the package and run against a `mnemo serve` by the CLI tests.
public enum SyncExample {
    /// Syncs `kb` (a device's file) with the namespace `user-42` of the server at `server`.
    public static func syncWithServer(_ kb: KnowledgeBase, server: URL, token: String) async throws -> SyncReport {
        // example: sync
        let transport = URLSessionSyncTransport(server: server, user: "user-42", token: token)
        let report = try await kb.sync(with: transport)
        print("pushed \(report.pushed), pulled \(report.pulled), merged \(report.merged)")
        // end example
        return report
    }
}
