import ArgumentParser
import Foundation
import Mnemo
import MnemoPostgres

/// Options every command accepts, before or after the subcommand name.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The database file, or a PostgreSQL store shared by several servers: postgres://user[:password]@host[:port]/database.",
            valueName: "path|url"))
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

    /// The PostgreSQL store `--db` names, or `nil` for a database file.
    var postgresLocation: PostgresLocation? {
        get throws { PostgresLocation.isURL(databasePath) ? try PostgresLocation(url: databasePath) : nil }
    }

    /// Opens (creating if needed) the database; with `embedding`, with the CLI's embedder, so
    /// semantic search and near-duplicate merging work.
    func openKnowledgeBase(embedding: Bool = false) async throws -> KnowledgeBase {
        try await openKnowledgeBase(embedder: embedding ? try EmbedderLoader.load() : nil)
    }

    /// Opens the database file, or this namespace of a PostgreSQL store (a node's copy, in a
    /// temporary folder removed when the command ends).
    func openKnowledgeBase(
        embedder: (any Embedder)?, acceptsOtherEmbedder: Bool = false, acceptsFactsWithoutVectors: Bool = false,
        storeOptions: PostgresMemory.Options = .init()
    ) async throws -> KnowledgeBase {
        var configuration = KnowledgeBase.Configuration(namespace: namespaceName, embedder: embedder)
        configuration.acceptsOtherEmbedder = acceptsOtherEmbedder
        configuration.acceptsFactsWithoutVectors = acceptsFactsWithoutVectors
        if let location = try postgresLocation {
            guard !readOnly else {
                throw CLIError(
                    "--read-only opens a database file; a postgres:// store is opened for reading and writing")
            }
            return try await OpenStores.connect(location, configuration: configuration, options: storeOptions)
                .knowledgeBase(namespace: namespaceName)
        }
        if readOnly {
            return try KnowledgeBase(readingOnly: databasePath, namespace: namespaceName, embedder: embedder)
        }
        return try KnowledgeBase(url: URL(fileURLWithPath: databasePath), configuration: configuration)
    }

    /// Opens the database only if its file exists, so read-only commands never create one.
    func openExistingKnowledgeBase(embedding: Bool = false) async throws -> KnowledgeBase {
        guard try postgresLocation != nil || FileManager.default.fileExists(atPath: databasePath) else {
            throw CLIError("no database at \(databasePath); create one with `mnemo ingest FILE` or pass --db")
        }
        return try await openKnowledgeBase(embedding: embedding)
    }
}

/// The PostgreSQL stores a command opened, closed when it ends (their copies' folder removed).
enum OpenStores {
    private static let opened = Locked<[PostgresMemory]>([])

    static func connect(
        _ location: PostgresLocation, configuration: KnowledgeBase.Configuration, options: PostgresMemory.Options
    ) async throws -> PostgresMemory {
        let memory = try await PostgresMemory.connect(location, configuration: configuration, options: options)
        opened.withLock { $0.append(memory) }
        return memory
    }

    static var all: [PostgresMemory] { opened.withLock { $0 } }

    static func closeAll() async {
        for memory in opened.withLock({ $0 }) { await memory.close() }
    }
}
