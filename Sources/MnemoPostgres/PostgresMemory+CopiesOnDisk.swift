import Foundation
import Mnemo
import PostgresNIO

extension PostgresMemory {
    /// Where `namespace`'s copy lives in the node's folder.
    func copyPath(of namespace: String) -> String {
        folder.url.appendingPathComponent(NamespaceCopy.fileName(for: namespace)).path
    }

    /// Deletes the closed copies in the node's folder that are not past their namespace's log
    /// floor. An erasure raises the floor to the version before it, so such a copy may hold
    /// erased text: a node that was down, or whose change feed was, missed the erasure's
    /// notification. The copy could not be caught up anyway, and is loaded afresh on its next
    /// use. Runs as the node starts, before it serves, and whenever the feed reconnects.
    func dropCopiesBehindTheLog() async throws {
        let files = Set(
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) ?? []).filter {
                $0.hasSuffix(".sqlite")
            })
        guard !files.isEmpty else { return }
        let floors = try await storeAccess("reading the log floors") { connection in
            var floors: [(namespace: String, floor: Int64)] = []
            let rows = try await connection.query(
                "SELECT namespace, log_floor FROM mnemo_namespace WHERE log_floor > 0", logger: self.logger)
            for try await (namespace, floor) in rows.decode((String, Int64).self) {
                floors.append((namespace, floor))
            }
            return floors
        }
        for (namespace, floor) in floors where files.contains(NamespaceCopy.fileName(for: namespace)) {
            guard await copies.existing(namespace) == nil else { continue }
            let path = copyPath(of: namespace)
            if let state = NamespaceCopy.storedState(at: path), state.store == storeID, state.version > floor {
                continue
            }
            await copies.removeFilesIfClosed(namespace, at: path)
        }
    }
}
