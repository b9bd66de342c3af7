import Foundation
import Mnemo
import PostgresNIO

extension PostgresMemory {
    /// Where `namespace`'s copy lives in the node's folder.
    func copyPath(of namespace: String) -> String {
        folder.url.appendingPathComponent(NamespaceCopy.fileName(for: namespace)).path
    }

    /// Deletes the copies in the node's folder that are not past their namespace's log floor, as
    /// the node starts and before it serves. An erasure raises the floor to the version before it,
    /// so such a copy may hold erased text (a node down during the erasure missed it); it could
    /// not be caught up anyway, and is loaded afresh on its next use.
    func dropCopiesBehindTheLog() async throws {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) ?? [])
            .filter { $0.hasSuffix(".sqlite") }
        guard !names.isEmpty else { return }
        let floors = try await storeAccess("reading the log floors") { connection in
            var floors: [String: Int64] = [:]
            let rows = try await connection.query(
                "SELECT namespace, log_floor FROM mnemo_namespace WHERE log_floor > 0", logger: self.logger)
            for try await (namespace, floor) in rows.decode((String, Int64).self) {
                floors[NamespaceCopy.fileName(for: namespace)] = floor
            }
            return floors
        }
        for name in names {
            guard let floor = floors[name] else { continue }
            let path = folder.url.appendingPathComponent(name).path
            if let state = NamespaceCopy.storedState(at: path), state.store == storeID, state.version > floor {
                continue
            }
            NamespaceCopy.removeFiles(at: path)
        }
    }
}
