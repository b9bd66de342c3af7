import ArgumentParser
import Foundation
import Mnemo

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the database for damage and inconsistencies; --repair rebuilds derived data.",
        discussion: """
            Checks the whole file, every namespace: SQLite's integrity_check, the full-text \
            index against the facts (FTS5 integrity-check), facts without vectors, vectors \
            without facts or of the wrong size, the recorded embedding model, and the topic \
            tree (orphans, cycles, paths and keys that disagree with their parents, facts \
            whose topic is missing), rows left of erased facts, and facts of a namespace with \
            the same normalized content (which Mnemo stores once; only another writer makes them).

            --repair rebuilds what is derived from the facts, in one transaction: the \
            full-text index, missing vectors (with the installed model), topic paths and keys; \
            it erases what is left of erased facts and merges facts of the same content into \
            the oldest (mentions add up, sources join); it then checks again and reports what \
            it did. Damage found by integrity_check and \
            vectors of another model are not repaired: restore `mnemo export` output into a \
            new database, or run `mnemo reembed`.

            Exit status: 0 when the database is clean (after the repair, with --repair), 1 otherwise.
            """
    )

    @Flag(help: "Rebuild the full-text index, missing vectors and topic paths, then check again.")
    var repair = false

    @OptionGroup var global: GlobalOptions

    struct JSONOutput: Encodable {
        var clean: Bool
        var problems: [CheckReport.Problem]
        var found: [CheckReport.Problem]
        var repairs: [String]
        var checked: [CheckReport.Problem.Code]
    }

    func run() async throws {
        guard try global.postgresLocation != nil || FileManager.default.fileExists(atPath: global.databasePath) else {
            throw CLIError("no database at \(global.databasePath)")
        }
        // Opened even when the stored vectors are another model's: that is one of the findings.
        let knowledgeBase = try await global.openKnowledgeBase(
            embedder: EmbedderLoader.load(), acceptsOtherEmbedder: true)
        let report = try await knowledgeBase.check(repair: repair)
        if global.json {
            try Output.json(
                JSONOutput(
                    clean: report.isClean, problems: report.problems, found: report.found,
                    repairs: report.repairs, checked: report.checked))
        } else {
            if repair {
                for problem in report.found { print("found: \(problem)") }
                for repair in report.repairs { print("repaired: \(repair)") }
            }
            for problem in report.problems { print("problem: \(problem)") }
            print(
                report.isClean
                    ? "ok: \(report.checked.count) checks passed"
                    : "\(report.problems.count) problems"
                        + (repair ? " left after the repair" : "; `mnemo check --repair` rebuilds derived data"))
        }
        if !report.isClean { throw ExitCode.failure }
    }
}
