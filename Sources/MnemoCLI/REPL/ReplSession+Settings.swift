import Mnemo

extension ReplSession {
    /// `:mode text|semantic|hybrid`
    func setMode(_ argument: String) throws {
        guard let mode = SearchMode(rawValue: argument.lowercased()) else {
            throw CLIError("usage: :mode text|semantic|hybrid (now \(mode.rawValue))")
        }
        if mode != .text, kb.embedder == nil {
            throw CLIError("\(mode.rawValue) search needs the embedding model: this REPL was opened with --mode text")
        }
        self.mode = mode
        print("Searching by \(mode.rawValue) from now on.")
    }

    /// `:limit N`
    func setLimit(_ argument: String) throws {
        guard let limit = Int(argument), (1...InlineFilter.maximumLimit).contains(limit) else {
            throw CLIError("usage: :limit N, from 1 to \(InlineFilter.maximumLimit) (now \(limit))")
        }
        self.limit = limit
        print("\(limit) results per search from now on.")
    }

    /// `:json`
    func toggleJSON() {
        json.toggle()
        print(json ? "JSON output on (:json again for text)." : "Text output on.")
    }

    /// `:help`
    func showHelp() {
        let commands = ReplCommandDefinition.all.map { command in
            (":" + command.name + (command.usage.isEmpty ? "" : " " + command.usage), command.summary)
        }
        let filters = InlineFilter.allCases.map { ($0.example, $0.valueHelp) }
        let width = (commands + filters).map(\.0.count).max() ?? 0
        func rows(_ rows: [(String, String)]) -> String {
            rows.map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }.joined(
                separator: "\n")
        }
        print(
            """
            Type words or a question to search (\(mode.rawValue), \(limit) results; "quoted phrases" match as a whole).
            Filters go anywhere in the query and are not searched for:
            \(rows(filters))
              importance:high,medium lists levels; a filter alone (type:goal) lists the facts that pass it.
            Commands:
            \(rows(commands))
            Keys: ↑/↓ history, Ctrl-R search the history, Tab completes commands, filters and topic paths.
            """)
    }
}
