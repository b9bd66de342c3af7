import Foundation
import Mnemo
import PostgresNIO

extension PostgresMemory {
    /// Follows the store's change feed until cancelled: each notification (`version namespace`,
    /// sent when a write commits) catches up the copy of that namespace if this node holds it,
    /// so its vector index is current before the next request arrives; after an erasure, a copy
    /// this node keeps closed on disk is deleted. A lost connection is
    /// retried every half second; after it comes back every held copy is caught up, and every
    /// closed copy an erasure left behind deleted, since notifications sent meanwhile are gone.
    func followChanges() async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: "mnemo_change") { notifications in
                        feedConnected.withLock { $0 = true }
                        for copy in await copies.all() { _ = try? await refresh(copy) }
                        // An erasure's notification sent meanwhile is gone too (on the first
                        // connection: since the start-up sweep, before the node listened).
                        try? await dropCopiesBehindTheLog()
                        for try await notification in notifications {
                            await changed(notification.payload)
                        }
                    }
                }
            } catch {
                // A lost feed is often the first sign of a stopped server: a probe tells.
                feedConnected.withLock { $0 = false }
                await accessFailed(
                    "the change feed's connection ended: \(StoreErrors.mapped(error, location: location))")
            }
            feedConnected.withLock { $0 = false }
            try? await Task.sleep(for: .milliseconds(500))
        }
    }

    /// The start of the notification an erasure adds (`erased namespace`); nodes of versions
    /// before it read no version in it and pass it by.
    static let erasureNotice = "erased "

    private func changed(_ payload: String) async {
        if payload.hasPrefix(Self.erasureNotice) {
            // An open copy catches up with the erasure through the version's notification; one
            // kept closed would hold the erased text until its next use.
            let namespace = String(payload.dropFirst(Self.erasureNotice.count))
            await copies.removeFilesIfClosed(namespace, at: copyPath(of: namespace))
            return
        }
        guard let space = payload.firstIndex(of: " "), let version = Int64(payload[..<space]) else { return }
        let namespace = String(payload[payload.index(after: space)...])
        guard let copy = await copies.existing(namespace) else { return }
        copy.usage.withLock { $0.versionsBehind = max($0.versionsBehind, 1) }
        _ = version
        Task { try? await self.refresh(copy) }
    }
}
