import Foundation
import Mnemo
import PostgresNIO

extension PostgresMemory {
    /// Follows the store's change feed until cancelled: each notification (`version namespace`,
    /// sent when a write commits) catches up the copy of that namespace if this node holds it,
    /// so its vector index is current before the next request arrives. A lost connection is
    /// retried every half second; after it comes back every held copy is caught up, since
    /// notifications sent meanwhile are gone.
    func followChanges() async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: "mnemo_change") { notifications in
                        feedConnected.withLock { $0 = true }
                        for copy in await copies.all() { _ = try? await refresh(copy) }
                        for try await notification in notifications {
                            await changed(notification.payload)
                        }
                    }
                }
            } catch {}
            feedConnected.withLock { $0 = false }
            try? await Task.sleep(for: .milliseconds(500))
        }
    }

    private func changed(_ payload: String) async {
        guard let space = payload.firstIndex(of: " "), let version = Int64(payload[..<space]) else { return }
        let namespace = String(payload[payload.index(after: space)...])
        guard let copy = await copies.existing(namespace) else { return }
        copy.usage.withLock { $0.versionsBehind = max($0.versionsBehind, 1) }
        _ = version
        Task { try? await self.refresh(copy) }
    }
}
