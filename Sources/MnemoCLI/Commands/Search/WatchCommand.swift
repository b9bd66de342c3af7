import ArgumentParser
import Foundation
import Mnemo

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Follow the memory's change feed: one line per change, until Ctrl-C.",
        discussion: """
            Prints each change of the namespace as it is committed, by this machine's processes \\
            or, on a PostgreSQL store, by any node: facts added, updated, merged, deleted, \\
            restored, erased; topics created, renamed, merged; conflicts found. Each line starts \\
            with the change's cursor: pass one to --since to resume after it. With --json, each \\
            change is one JSON object on its own line.
              mnemo watch
              mnemo watch --since 1042-9f1c2a7e --json | jq .event
            """)

    @Option(
        help: ArgumentHelp("Start after this cursor instead of now (use 0 for the feed's start).", valueName: "cursor"))
    var since: String?

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let kb = try await global.openExistingKnowledgeBase()
        let cursor = try since.map { $0 == "0" ? kb.feedOrigin : try kb.cursor($0) }
        let output = FileHandle.standardOutput
        let encoder = JSONEncoder.mnemoOutput(pretty: false)
        for try await page in kb.changeStream(after: cursor) {
            var text = ""
            for event in page.events {
                text +=
                    global.json
                    ? String(decoding: try encoder.encode(ChangeEventJSON(event)), as: UTF8.self)
                    : Self.line(event)
                text += "\n"
            }
            // Written at once, line by line, even into a pipe.
            output.write(Data(text.utf8))
        }
    }

    /// `1042-9f1c2a7e  2026-11-26T14:03:21Z  fact_added  #42 "Plays the cello" (Music)`
    static func line(_ event: ChangeEvent) -> String {
        var parts = ["\(event.cursor)", Timestamp.format(event.date), event.kind.rawValue]
        if let id = event.factID { parts.append("#\(id)") }
        if let fact = event.fact {
            parts.append("\"\(fact.content)\" (\(fact.topicPath))")
        } else if let topic = event.topic {
            parts.append("topic \"\(topic.path)\"")
        } else if let id = event.topicID {
            parts.append("topic #\(id)")
        }
        if let related = event.relatedFactID {
            parts.append(event.kind == .factMergedInto ? "into #\(related)" : "with #\(related)")
        }
        if !event.fields.isEmpty { parts.append("fields: " + event.fields.joined(separator: ", ")) }
        return parts.joined(separator: "  ")
    }
}
