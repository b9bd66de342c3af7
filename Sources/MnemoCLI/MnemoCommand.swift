import ArgumentParser

@main
struct MnemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mnemo",
        abstract: "A knowledge base of facts about a user, searchable by words and by meaning.",
        discussion: """
            Facts live in one SQLite file (--db, default ./mnemo.sqlite or $MNEMO_DB), organised \
            in a topic tree and scoped to a namespace (--namespace, default "default"). \
            Global options may come before or after the subcommand.

            Start with `mnemo demo`, or `mnemo ingest facts.jsonl` then `mnemo search "swiftui"`.
            """,
        subcommands: [
            IngestCommand.self,
            SearchCommand.self,
            TopicsCommand.self,
            TopicCommand.self,
            FactCommand.self,
            HistoryCommand.self,
            ConflictsCommand.self,
            UndoCommand.self,
            StatsCommand.self,
            MergeCommand.self,
            DedupeCommand.self,
            ExportCommand.self,
            ReembedCommand.self,
            ReplCommand.self,
            ServeCommand.self,
            MCPCommand.self,
            ModelCommand.self,
            BenchCommand.self,
            EvalCommand.self,
            DemoCommand.self,
        ]
    )

    @OptionGroup var global: GlobalOptions
}
