import ArgumentParser
import Foundation
import Mnemo

/// Options every command accepts, before or after the subcommand name.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The database file.", valueName: "path"))
    var db: String?

    @Option(name: .long, help: ArgumentHelp("Whose memory to use.", valueName: "name"))
    var namespace: String?

    @Flag(name: .long, help: "Print machine-readable JSON instead of text.")
    var json = false

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Open the database read-only and immutable (a file on a read-only volume or shipped with an app): searches work, writes fail, no -wal or -shm file is created."
        ))
    var readOnly = false

    /// The database path: `--db`, else `$MNEMO_DB`, else `./mnemo.sqlite`.
    var databasePath: String {
        db ?? ProcessInfo.processInfo.environment["MNEMO_DB"] ?? "mnemo.sqlite"
    }

    var namespaceName: String { namespace ?? KnowledgeBase.defaultNamespace }

    /// Opens (creating if needed) the database; with `embedding`, with the CLI's embedder, so
    /// semantic search and near-duplicate merging work.
    func openKnowledgeBase(embedding: Bool = false) throws -> KnowledgeBase {
        let embedder = embedding ? try EmbedderLoader.load() : nil
        if readOnly {
            return try KnowledgeBase(readingOnly: databasePath, namespace: namespaceName, embedder: embedder)
        }
        return try KnowledgeBase(path: databasePath, namespace: namespaceName, embedder: embedder)
    }

    /// Opens the database only if its file exists, so read-only commands never create one.
    func openExistingKnowledgeBase(embedding: Bool = false) throws -> KnowledgeBase {
        guard FileManager.default.fileExists(atPath: databasePath) else {
            throw CLIError("no database at \(databasePath); create one with `mnemo ingest FILE` or pass --db")
        }
        return try openKnowledgeBase(embedding: embedding)
    }
}
