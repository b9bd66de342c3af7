import Foundation
import GRDB

extension KnowledgeBase {
    /// Opens a knowledge base that is only read: a file shipped as an app resource, on a
    /// read-only volume, or another user's.
    ///
    /// Every search mode works; writes throw. No file is created next to the database (SQLite
    /// usually adds `-wal` and `-shm` files to a WAL database, which Mnemo's are): it is opened as
    /// immutable, so it must not change while open. To ship a database, copy the file after the
    /// last `KnowledgeBase` that wrote it is gone (SQLite folds the WAL into the file then), or
    /// export and ingest into a fresh one.
    /// - Throws: ``MnemoError/databaseUnusable(path:reason:)`` when the file is missing, not a
    ///   Mnemo database, or from a newer version; ``MnemoError/Conflict/embedderMismatch(stored:given:)``
    ///   when its vectors were made by another model than `embedder`'s.
    public convenience init(
        readingOnly path: String, namespace: String = KnowledgeBase.defaultNamespace, embedder: (any Embedder)? = nil
    ) throws {
        let configuration = Configuration(namespace: namespace, embedder: embedder)
        let (queue, immutable): (DatabaseQueue, Bool)
        do {
            (queue, immutable) = try DatabaseFactory.openReadOnly(
                atPath: path, configuration: configuration.preparedDatabaseConfiguration())
        } catch {
            throw MnemoError(error)
        }
        try self.init(migrating: queue, configuration: configuration, readOnly: true, followsChanges: !immutable)
    }
}
