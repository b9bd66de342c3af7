import Foundation
import GRDB

extension KnowledgeBase {
    /// Where the graph indexes of the database `writer` opened are saved: a directory beside
    /// its file (`memory.sqlite-graphs/`); `nil` for a database in memory.
    ///
    /// Beside the database rather than in it: a graph is a cache of what the database holds,
    /// rewritten whole (hundreds of megabytes at a million facts), which in a table would pass
    /// through the write-ahead log and leave free pages to zero after every erasure; a file is
    /// renamed into place in one step and removed in one step, and needs no migration.
    static func graphStorage(of writer: any DatabaseWriter, model: String) -> ApproximateIndex.Storage? {
        let path = writer.path
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:"),
            FileManager.default.fileExists(atPath: path)
        else { return nil }
        return ApproximateIndex.Storage(
            directory: ApproximateIndex.Storage.directory(besideDatabaseAt: path), model: model,
            latestSequence: { [weak writer] in
                // Weak: the writer's observers hold the vector index, which holds this.
                guard let writer else { throw CancellationError() }
                return try writer.read(ChangeLog.latestSequence)
            })
    }

    /// After an erasure: rewrites or removes this namespace's saved graph, so that the erased
    /// facts' codes are not left in it (see ``ApproximateIndex/scrubSavedGraph(of:)``).
    func scrubSavedVectorGraph() {
        vectorIndex?.approximate.scrubSavedGraph(of: namespace)
    }

    /// Removes the graphs saved beside the database at `path`, for a copy that took in an
    /// erasure made elsewhere (a node of a shared store applying another node's changes): the
    /// saved codes of the erased facts go with them, and the next large search rebuilds or the
    /// next save writes them anew. A save that began before the erasure does not put them back:
    /// it installs only a graph that holds the database's latest change.
    package static func removeSavedVectorGraphs(ofDatabaseAt path: String) {
        guard !path.isEmpty else { return }
        try? FileManager.default.removeItem(at: ApproximateIndex.Storage.directory(besideDatabaseAt: path))
    }
}
