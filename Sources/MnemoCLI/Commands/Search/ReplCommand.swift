import ArgumentParser
import Foundation
import Mnemo

struct ReplCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Search interactively: type a question, get the facts that answer it.",
        discussion: """
            Filters go inside the query and are not searched for: type:goal, type:goal,fact, \
            importance:>=medium, topic:"Work/Projects", active:all, limit:20, mode:semantic, \
            min:0.5. Commands start with a colon: :fact ID, :history ID, :topic PATH, :topics, \
            :stats, :merge A into B, :dedupe, :explain N, :json, :help, :quit.

            On a terminal, lines are edited with libedit when it is installed (arrows, Ctrl-A/E/W/U, \
            Ctrl-R to search the history, Tab to complete commands, filters and topic paths); the \
            history is kept in the user's data folder ($MNEMO_HISTORY moves it, empty turns it off). \
            Piped input is read line by line without prompts, so `echo climbing | mnemo repl` \
            works in scripts; the exit status is 1 when any line failed.
            """
    )

    @Option(help: "The search mode to start with (default: hybrid).")
    var mode: SearchMode?

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        // A session that starts in text mode needs no embedder, so it opens even when the
        // database's vectors come from another model.
        let mode = mode ?? .hybrid
        let kb = try await global.openExistingKnowledgeBase(embedding: mode != .text)
        try await Self.loop(kb, mode: mode, json: global.json)
    }

    /// Reads lines until `:quit` or the end of input, answering each.
    static func loop(_ kb: KnowledgeBase, mode: SearchMode, json: Bool = false) async throws {
        let environment = ProcessInfo.processInfo.environment
        let interactive = isatty(STDIN_FILENO) == 1
        let session = ReplSession(
            kb: kb, mode: mode, json: json,
            style: TerminalStyle.detect(environment: environment, isTerminal: Output.isTerminal))
        try await session.refreshTopicPaths()
        let reader = lineReader(interactive: interactive, environment: environment, session: session)
        if interactive {
            let stats = try await kb.stats()
            var banner =
                "Mnemo — \(stats.activeFacts) facts in \(stats.topics) topics, \(mode.rawValue) search. Ask something, or :help."
            if reader is PlainLineReader {
                banner +=
                    environment["MNEMO_LIBEDIT"] == "none"
                    ? "\n(Line editing is off: MNEMO_LIBEDIT=none.)"
                    : "\n(No line editing: libedit was not found; on Debian or Ubuntu it is the libedit2 package.)"
            }
            print(banner)
        }
        while !session.isFinished, let line = reader.readLine(prompt: "mnemo> ") {
            reader.remember(line)
            await session.handle(line)
            fflush(nil)
        }
        if interactive && !session.isFinished { print() } // Ctrl-D leaves the cursor after the prompt.
        if !interactive && session.failures > 0 { throw ExitCode.failure }
    }

    /// libedit on a terminal when it can be loaded; plain lines otherwise, with a prompt only
    /// on a terminal. The prompt goes to standard error when standard output is redirected.
    private static func lineReader(interactive: Bool, environment: [String: String], session: ReplSession)
        -> any LineReader
    {
        guard interactive else { return PlainLineReader(showsPrompt: false) }
        guard let libedit = LibEdit.load(environment: environment) else { return PlainLineReader(showsPrompt: true) }
        return EditingLineReader(
            libedit: libedit, historyFile: HistoryFile.url(environment: environment),
            output: Output.isTerminal ? nil : fdopen(STDERR_FILENO, "w"),
            complete: { [unowned session] in session.completion(for: $0) })
    }
}
