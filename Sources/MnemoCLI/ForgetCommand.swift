import ArgumentParser
import Foundation
import Mnemo

struct ForgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Erase a whole namespace: every fact, topic, history event and undo record of one user.",
        discussion: """
            What a user's "forget me" asks for. Nothing of the namespace is left in the database \\
            file, its -wal or its -shm, and nothing can bring it back; other namespaces are \\
            untouched. On a terminal it asks for confirmation; in a script pass --yes.
              mnemo forget --namespace user-42 --yes
            """)

    @Flag(help: "Erase without asking (required when standard input is not a terminal).")
    var yes = false

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let kb = try await global.openExistingKnowledgeBase()
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                throw CLIError("forget erases the namespace \(kb.namespace) for good; pass --yes to confirm")
            }
            let stats = try await kb.stats()
            FileHandle.standardError.write(
                Data(
                    """
                    Erase all of \(kb.namespace) (\(stats.facts) facts, \(stats.topics) topics), with its history and undo records? \
                    This cannot be undone. Type the namespace to confirm: 
                    """.utf8))
            guard readLine()?.trimmingCharacters(in: .whitespaces) == kb.namespace else {
                throw CLIError("not confirmed; nothing was erased")
            }
        }
        try ErasureOutput.print(try await kb.eraseNamespace(), global)
    }
}
