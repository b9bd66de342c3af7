import Foundation
import Mnemo

/// One REPL session: its settings, what it found last, and the answer to each line.
///
/// A line is a `:command` (``ReplCommandDefinition/all``) or a search with inline filters
/// (``InlineQuery``). Results go to standard output; errors and hints to standard error, and
/// the session goes on.
final class ReplSession {
    let kb: KnowledgeBase
    /// The search mode and number of results when a query names none (`:mode`, `:limit`).
    var mode: SearchMode
    var limit = 5
    /// Whether results print as JSON (`:json`).
    var json: Bool
    let style: TerminalStyle
    /// Set by `:quit`.
    var isFinished = false
    /// How many lines failed; with piped input, the exit status says whether any did.
    private(set) var failures = 0
    /// The last search and its results, for `:explain`.
    var lastSearch: (query: SearchQuery, mode: SearchMode, hits: [SearchHit])?
    /// Every topic path, for Tab completion and hints.
    var topicPaths: [String] = []

    init(kb: KnowledgeBase, mode: SearchMode, json: Bool, style: TerminalStyle) {
        self.kb = kb
        self.mode = mode
        self.json = json
        self.style = style
    }

    /// Answers one line.
    func handle(_ line: String) async {
        let line = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !line.isEmpty else { return }
        do {
            if line.hasPrefix(":") {
                try await runCommand(line)
            } else {
                try await search(line)
            }
        } catch {
            failures += 1
            Output.note(style.error("error: \(error)"))
        }
    }

    /// Reads the topic paths again (at the start, and after a merge changed them).
    func refreshTopicPaths() async throws {
        func paths(_ nodes: [TopicNode]) -> [String] { nodes.flatMap { [$0.topic.path] + paths($0.children) } }
        topicPaths = paths(try await kb.topicTree())
    }

    /// What Tab offers for the line before the cursor.
    func completion(for linePrefix: String) -> LineCompletion? {
        ReplCompleter(topicPaths: topicPaths).complete(linePrefix)
    }

    private func runCommand(_ line: String) async throws {
        let body = line.dropFirst()
        let name = String(body.prefix { !$0.isWhitespace })
        let argument = body.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        guard let command = Self.command(named: name) else { throw CLIError(Self.unknownCommandMessage(name)) }
        try await command.run(self, argument)
    }

    /// The command `name` names, or starts unambiguously (`:hist` is `:history`).
    static func command(named name: String) -> ReplCommandDefinition? {
        let all = ReplCommandDefinition.all
        if let command = all.first(where: { $0.isNamed(name) }) { return command }
        let extended = all.filter { name.count >= 2 && $0.name.hasPrefix(name.lowercased()) }
        return extended.count == 1 ? extended[0] : nil
    }

    static func unknownCommandMessage(_ name: String) -> String {
        if let filter = InlineFilter(rawValue: name.lowercased()) {
            return ":\(name) is not a command: filters go in the query, as in \(filter.example) marathon"
        }
        let names = ReplCommandDefinition.all.map(\.name)
        let extended = names.filter { name.count >= 2 && $0.hasPrefix(name.lowercased()) }
        if extended.count > 1 {
            return ":\(name) could be " + extended.map { ":" + $0 }.joined(separator: " or ")
        }
        if let guess = SpellingHint.suggestion(for: name, among: names) {
            return "unknown command :\(name) — did you mean :\(guess)?"
        }
        return "unknown command :\(name); type :help for the list"
    }
}
