import ArgumentParser
import Foundation
import Mnemo

struct ReplCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Search interactively: type a question, get the facts that answer it.",
        discussion: "Type :help inside for commands (mode, type, importance, topic, limit, topics, stats)."
    )

    @Option(help: "The search mode to start with (default: hybrid with an embedder).")
    var mode: SearchMode?

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        // A session that starts in text mode needs no embedder, so it opens even when the
        // database's vectors come from another model; `:mode hybrid` then searches by words.
        let mode = mode ?? .hybrid
        let kb = try global.openExistingKnowledgeBase(embedding: mode != .text)
        try await Self.loop(kb, mode: mode)
    }

    /// Reads lines until `:quit` or end of input, answering each.
    static func loop(_ kb: KnowledgeBase, mode: SearchMode) async throws {
        var session = ReplSession(mode: mode)
        let interactive = Output.isTerminal
        if interactive {
            let stats = try await kb.stats()
            print("Mnemo — \(stats.activeFacts) facts in \(stats.topics) topics. Ask something, or :help.")
        }
        while true {
            if interactive { print("mnemo> ", terminator: "") }
            fflush(nil)
            guard let line = readLine() else { break }
            switch session.handle(line) {
            case .quit: return
            case .nothing: continue
            case let .say(text): print(text)
            case .showTopics: print(TopicOutput.outline(try await kb.topicTree()))
            case .showStats:
                let stats = try await kb.stats()
                print("\(stats.activeFacts) active facts, \(stats.topics) topics")
            case let .search(text):
                do {
                    print(SearchOutput.text(try await kb.search(session.query(text))))
                } catch {
                    print("error: \(error)")
                }
            }
        }
    }
}
