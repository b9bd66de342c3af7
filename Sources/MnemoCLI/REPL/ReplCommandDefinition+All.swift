extension ReplCommandDefinition {
    /// Every REPL command, in the order `:help` lists them.
    static let all: [ReplCommandDefinition] = [
        ReplCommandDefinition(name: "fact", usage: "ID", summary: "every field of a fact") {
            try await $0.showFact($1)
        },
        ReplCommandDefinition(name: "history", usage: "ID", summary: "every change to a fact, oldest first") {
            try await $0.showHistory($1)
        },
        ReplCommandDefinition(
            name: "topic", usage: "PATH", summary: "a topic's subtopics and facts", argument: .topicPath
        ) {
            try await $0.showTopic($1)
        },
        ReplCommandDefinition(name: "topics", summary: "the topic tree with fact counts") { session, _ in
            try await session.showTopics()
        },
        ReplCommandDefinition(name: "stats", summary: "facts by type and importance, topics") { session, _ in
            try await session.showStats()
        },
        ReplCommandDefinition(
            name: "merge", usage: "A[, B…] into C", summary: "merge topics A (and B…) into C",
            argument: .topicMerge
        ) { try await $0.merge($1) },
        ReplCommandDefinition(name: "dedupe", summary: "list duplicate facts and topic variants (dry run)") {
            session, _ in
            try await session.dedupe()
        },
        ReplCommandDefinition(
            name: "context", usage: "MESSAGE [budget:N]",
            summary: "the memory an assistant would see before answering MESSAGE (800 tokens unless budget:N)"
        ) {
            try await $0.showContext($1)
        },
        ReplCommandDefinition(name: "conflicts", summary: "pairs of facts that say different things, newest first") {
            session, _ in
            try await session.showConflicts()
        },
        ReplCommandDefinition(
            name: "undo", usage: "[ID]", summary: "revert the last merge, update or deletion (or operation ID)"
        ) {
            try await $0.undo($1)
        },
        ReplCommandDefinition(name: "explain", usage: "N", summary: "why result N ranked where it did") {
            try await $0.explain($1)
        },
        ReplCommandDefinition(
            name: "mode", usage: "text|semantic|hybrid", summary: "how to search from now on",
            argument: .searchMode
        ) { try $0.setMode($1) },
        ReplCommandDefinition(name: "limit", usage: "N", summary: "results per search from now on") {
            try $0.setLimit($1)
        },
        ReplCommandDefinition(name: "json", summary: "print JSON instead of text (again: back to text)") { session, _ in
            session.toggleJSON()
        },
        ReplCommandDefinition(name: "help", aliases: ["h", "?"], summary: "this text") { session, _ in
            session.showHelp()
        },
        ReplCommandDefinition(name: "quit", aliases: ["q", "exit"], summary: "leave (or Ctrl-D)") { session, _ in
            session.isFinished = true
        },
    ]
}
