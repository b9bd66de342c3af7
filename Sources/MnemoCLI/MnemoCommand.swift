import ArgumentParser
import Foundation
import Mnemo

@main
struct MnemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mnemo",
        abstract: "A knowledge base of facts about a user, searchable by words and by meaning.",
        discussion: """
            Facts live in one SQLite file (--db, default ./mnemo.sqlite or $MNEMO_DB) or, for \
            several servers, in PostgreSQL (--db postgres://user:password@host/database), organised \
            in a topic tree and scoped to a namespace (--namespace, default "default"). \
            Global options may come before or after the subcommand.

            Start with `mnemo demo`, or `mnemo ingest facts.jsonl` then `mnemo search "swiftui"`.
            """,
        version: MnemoVersion.current,
        groupedSubcommands: [
            CommandGroup(
                name: "Search and browse",
                subcommands: [
                    SearchCommand.self, ReplCommand.self, TopicsCommand.self, TopicCommand.self,
                    HistoryCommand.self, ConflictsCommand.self, StatsCommand.self, ContextCommand.self,
                    WatchCommand.self,
                ]),
            CommandGroup(
                name: "Write",
                subcommands: [
                    IngestCommand.self, FactCommand.self, MergeCommand.self, UndoCommand.self, ForgetCommand.self,
                ]),
            CommandGroup(
                name: "Maintain",
                subcommands: [
                    DedupeCommand.self, CheckCommand.self, PurgeCommand.self, ExportCommand.self, ReembedCommand.self,
                    ModelCommand.self,
                ]),
            CommandGroup(name: "Serve", subcommands: [ServeCommand.self, MCPCommand.self, SyncCommand.self]),
            CommandGroup(name: "Measure", subcommands: [BenchCommand.self, EvalCommand.self]),
            CommandGroup(name: "Try it", subcommands: [DemoCommand.self]),
        ]
    )

    @OptionGroup var global: GlobalOptions

    /// Runs the command line. A write past the file size limit (`ulimit -f`) then fails with an
    /// error that is reported and rolled back, instead of SIGXFSZ killing the process mid-write.
    /// A `MNEMO_KERNELS` that names no kernel path, or one this CPU cannot run, stops every
    /// command before it starts (the library alone would only warn and use the fastest path).
    static func main() async {
        signal(SIGXFSZ, SIG_IGN)
        do {
            _ = try KernelInstructionSet.requestedByEnvironment()
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            await OpenStores.closeAll()
        } catch let interrupted as Interruption.Interrupted {
            await OpenStores.closeAll()
            FileHandle.standardError.write(Data("\(interrupted)\n".utf8))
            Foundation.exit(Interruption.Interrupted.exitCode)
        } catch {
            await OpenStores.closeAll()
            exit(withError: CLIError.explaining(error))
        }
    }
}
