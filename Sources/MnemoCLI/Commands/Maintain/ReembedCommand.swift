import ArgumentParser
import Foundation
import Mnemo

struct ReembedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reembed",
        abstract: "Rebuild every fact's vector with the current embedding model.",
        discussion:
            "Run it after installing or changing the model; until then, semantic search refuses a database made with another model."
    )

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let embedder = try EmbedderLoader.load()
        guard try global.postgresLocation != nil || FileManager.default.fileExists(atPath: global.databasePath) else {
            throw CLIError("no database at \(global.databasePath)")
        }
        let kb = try await global.openKnowledgeBase(embedder: embedder, acceptsOtherEmbedder: true)
        let status = StatusLine.forTerminal()
        let count = try await kb.reembed { status?.show("embedding", done: $0.done, total: $0.total) }
        status?.finish()
        if global.json {
            try Output.json(["facts": count])
        } else {
            print("Re-embedded \(count) facts with \(embedder.identity).")
        }
    }
}
