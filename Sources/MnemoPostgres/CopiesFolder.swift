import Foundation
import Mnemo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folder where a node keeps its namespace copies, held by that node alone.
///
/// A lock file in the folder is locked (`flock`) for the node's life; the kernel lets go of it
/// when the process ends, however it ends. So a second node given the same folder is refused
/// instead of writing the same files, and a temporary folder whose lock is free belongs to a node
/// that is gone: the next node to start removes it, with the copies of user data it held, instead
/// of leaving it in the temporary directory forever.
final class CopiesFolder: Sendable {
    let url: URL
    /// A temporary folder goes when its node closes; a given one is kept across restarts.
    let isTemporary: Bool
    /// The locked descriptor; `nil` once released.
    private let lock: Locked<Int32?>

    static let lockName = ".mnemo-node.lock"
    static let temporaryPrefix = "mnemo-copies-"

    private init(url: URL, isTemporary: Bool, lock: Int32) {
        self.url = url
        self.isTemporary = isTemporary
        self.lock = Locked(lock)
    }

    /// Claims `given`, or a new temporary folder after removing those of nodes that are gone.
    /// - Throws: ``MnemoError/databaseUnusable(path:reason:)`` when another live node holds
    ///   `given`, or the folder cannot be made.
    static func claim(_ given: URL?) throws -> CopiesFolder {
        let files = FileManager.default
        if let given {
            try make(given)
            guard let lock = try tryLock(in: given) else {
                throw MnemoError.databaseUnusable(
                    path: given.path,
                    reason: "another running node keeps its copies in this folder; give each node its own")
            }
            return CopiesFolder(url: given, isTemporary: false, lock: lock)
        }
        let parent = files.temporaryDirectory
        removeAbandoned(in: parent)
        // Made and locked under a name no node scans, then renamed: a folder under the scanned
        // name is always locked while its node lives.
        let name = temporaryPrefix + UUID().uuidString.prefix(8)
        let staging = parent.appendingPathComponent(".\(name)")
        try make(staging)
        guard let lock = try tryLock(in: staging) else {
            throw MnemoError.databaseUnusable(path: staging.path, reason: "a new folder of copies is locked already")
        }
        let url = parent.appendingPathComponent(name)
        do {
            try files.moveItem(at: staging, to: url)
        } catch {
            close(lock)
            try? files.removeItem(at: staging)
            throw MnemoError.databaseUnusable(path: url.path, reason: "cannot create the folder of copies: \(error)")
        }
        return CopiesFolder(url: url, isTemporary: true, lock: lock)
    }

    /// Removes a temporary folder, then lets go of the lock (once, however often it is called).
    func release() {
        lock.withLock { descriptor in
            guard let held = descriptor else { return }
            if isTemporary { try? FileManager.default.removeItem(at: url) }
            close(held)
            descriptor = nil
        }
    }

    /// Removes the temporary folders of copies in `parent` whose node is gone: their lock is free
    /// (or they have none: a node of a version before the lock, or one killed as it started).
    static func removeAbandoned(in parent: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        for name in names where name.hasPrefix(temporaryPrefix) {
            let folder = parent.appendingPathComponent(name)
            guard let lock = try? tryLock(in: folder) else { continue }
            try? FileManager.default.removeItem(at: folder)
            close(lock)
        }
    }

    private static func make(_ folder: URL) throws {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw MnemoError.databaseUnusable(path: folder.path, reason: "cannot create the folder of copies: \(error)")
        }
    }

    /// The descriptor of `folder`'s lock file, locked; `nil` when another process holds it.
    private static func tryLock(in folder: URL) throws -> Int32? {
        let path = folder.appendingPathComponent(lockName).path
        // Not inherited by processes the node starts: a child holding it would keep the folder
        // locked after the node stopped.
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw MnemoError.databaseUnusable(
                path: path, reason: "cannot open the lock file: \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }
}
