import ArgumentParser
import Foundation
import Mnemo

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Install the model if missing, load the sample memory, and open the search REPL.",
        discussion: """
            Loads Fixtures/knowledge.jsonl (facts about a fictional iOS developer in Porto) into \
            ./mnemo-demo.sqlite, shows a few searches, then opens the REPL. Run it from the \
            repository: swift run -c release mnemo demo
            """
    )

    @Option(help: ArgumentHelp("The demo database.", valueName: "path"))
    var db = "mnemo-demo.sqlite"

    @Flag(help: "Delete the demo database first and load the sample again.")
    var reset = false

    @Flag(help: "Show the example searches and exit without opening the REPL.")
    var noRepl = false

    func run() async throws {
        do {
            _ = try ModelCommand.install(from: nil)
        } catch {
            Output.note("note: could not install the model (\(error)); continuing without it")
        }
        if reset { try? FileManager.default.removeItem(atPath: db) }
        let isNew = !FileManager.default.fileExists(atPath: db)
        let kb = try KnowledgeBase(path: db, embedder: try EmbedderLoader.load())
        if isNew {
            let sample = try Self.sampleFile()
            print("Loading \(sample.path)…")
            let report = try await kb.ingest(contentsOf: sample)
            print(
                "\(report.added) facts added, \(report.merged) near duplicates merged, \(report.unchanged) exact duplicates counted."
            )
        }
        for example in ["swiftui", "which programming language do I know best?", "where does my sister live?"] {
            print("\nmnemo> \(example)")
            print(SearchOutput.text(try await kb.search(SearchQuery(example, limit: 3))))
        }
        guard !noRepl else { return }
        print()
        try await ReplCommand.loop(kb, mode: .hybrid)
    }

    /// `Fixtures/knowledge.jsonl` in the working directory, else in the source tree this binary was built from.
    static func sampleFile() throws -> URL {
        let relative = "Fixtures/knowledge.jsonl"
        let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        for candidate in [URL(fileURLWithPath: relative), sourceRoot.appendingPathComponent(relative)]
        where FileManager.default.fileExists(atPath: candidate.path) {
            return candidate
        }
        throw CLIError("cannot find \(relative); run the demo from the repository folder")
    }
}
