import ArgumentParser
import Foundation
import Mnemo

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every fact as JSONL, which `mnemo ingest` reads back losslessly.",
        discussion: """
            One fact per line, ordered by id, with every field: id, namespace, topic, content, \
            type, importance, confidence, is_active, sources, mention_count, created_at, \
            updated_at. Inactive facts are included. Ingesting the file into an empty database \
            restores the same facts with the same ids.

            Examples:
              mnemo export > backup.jsonl
              mnemo export --all-namespaces --output backup.jsonl
              mnemo ingest backup.jsonl --db restored.sqlite --namespaces-from-records
            """
    )

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Write to this file, replaced only once complete, instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(help: "Export every namespace, not only --namespace.")
    var allNamespaces = false

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let knowledgeBase = try await global.openExistingKnowledgeBase()
        guard let output else {
            try await knowledgeBase.export(to: FileHandle.standardOutput, allNamespaces: allNamespaces)
            return
        }
        let count = try await knowledgeBase.export(to: URL(fileURLWithPath: output), allNamespaces: allNamespaces)
        if global.json {
            try Output.json(Summary(exported: count, file: output))
        } else {
            Output.note("Exported \(count) facts to \(output).")
        }
    }

    /// The JSON shape of `mnemo export --output FILE --json`.
    private struct Summary: Encodable {
        var exported: Int
        var file: String
    }
}
