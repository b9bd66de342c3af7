import Foundation
import Mnemo

/// Sync's examples (the "Syncing a device" article, ``URLSessionSyncTransport``'s
/// documentation), compiled with the package and run against a `mnemo serve` by
/// `SyncLifecycleTests`.
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

    // example: sync-app
    /// What the app does after a background sync.
    public enum Outcome: Sendable, Equatable {
        case synced(SyncReport)
        /// The token was refused or is not this user's: ask the user to sign in again.
        case signIn
        /// No network, a server that did not answer in time or failed, or the background time
        /// ran out: try again at the next background slot.
        case retryLater
        /// The server speaks another version of sync: the app needs an update.
        case updateApp
        /// The file is linked to another server (the user switched accounts or servers): ask,
        /// then sync with `SyncOptions(relinks: true)`.
        case confirmRelink
        /// The copies still differ after a repair: nothing was lost; report it.
        case report(String)
    }

    /// Syncs in a background task. On iOS, call it from a `BGAppRefreshTask` handler and cancel
    /// the returned task in the task's `expirationHandler`: the sync stops at the next request,
    /// and what it did stays done for the next sync to carry on from.
    public static func syncInBackground(
        _ kb: KnowledgeBase, server: URL, token: String, show: @escaping @Sendable (String) -> Void
    ) -> Task<Outcome, Never> {
        Task {
            let transport = URLSessionSyncTransport(
                server: server, user: "user-42", token: token, timeout: .seconds(15))
            do {
                let report = try await kb.sync(with: transport) { progress in
                    if let total = progress.total, total > 0 {
                        show("\(progress.phase.rawValue): \(100 * progress.done / total)%")
                    } else {
                        show("\(progress.phase.rawValue): \(progress.done)")
                    }
                }
                if report.deviceWentBack || report.serverWentBack {
                    // Restored from a backup (this phone, or the server): sync read the whole
                    // namespace and offered the server what it lacked; nothing to do but say so.
                    show("Brought back in step after a restore (\(report.repaired) facts mended)")
                }
                return .synced(report)
            } catch is CancellationError {
                return .retryLater
            } catch MnemoError.cancelled {
                return .retryLater
            } catch let error as SyncError {
                switch error.kind {
                case .unauthorized, .forbidden: return .signIn
                case .unreachable, .timedOut, .serverError: return .retryLater
                case .incompatibleServer: return .updateApp
                case .otherServer: return .confirmRelink
                case .diverged: return .report(error.reason)
                }
            } catch {
                // The file itself failed (a full disk, a damaged file): see MnemoError.
                return .report("\(error)")
            }
        }
    }
    // end example
}
