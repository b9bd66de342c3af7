import ArgumentParser
import Foundation
import MnemoTestSupport
import Testing

@testable import MnemoCLI

/// Every command's `--help` is pinned in `Snapshots/` beside this file, so that a change to what
/// the command line teaches is a visible diff in review.
///
/// After a deliberate change, write the snapshots anew with
/// `MNEMO_UPDATE_SNAPSHOTS=1 swift test -c release --filter HelpSnapshotTests` and commit them.
@Suite struct HelpSnapshotTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    /// Every command's words after `mnemo`, from the root command's configuration down: `[]` for
    /// `mnemo` itself, `["fact", "show"]` for `mnemo fact show`.
    static func commandPaths(_ command: any ParsableCommand.Type = MnemoCommand.self, prefix: [String] = [])
        -> [[String]]
    {
        let configuration = command.configuration
        let children = configuration.subcommands + configuration.groupedSubcommands.flatMap(\.subcommands)
        return [prefix] + children.flatMap { commandPaths($0, prefix: prefix + [$0._commandName]) }
    }

    static func snapshotName(_ path: [String]) -> String {
        "help-" + (path.isEmpty ? "mnemo" : path.joined(separator: "-")) + ".txt"
    }

    @Test func everyCommandsHelpIsPinned() throws {
        let update = ProcessInfo.processInfo.environment["MNEMO_UPDATE_SNAPSHOTS"] != nil
        let paths = Self.commandPaths()
        #expect(paths.count > 30)
        for path in paths {
            // A fixed width, so the text wraps alike on every terminal and in CI.
            let result = try CLIRunner.run(path + ["--help"], environment: ["COLUMNS": "100"])
            #expect(result.status == 0, "\(path): \(result.stderr)")
            let file = Self.folder.appendingPathComponent(Self.snapshotName(path))
            if update { try result.stdout.write(to: file, atomically: true, encoding: .utf8) }
            let pinned = try? String(contentsOf: file, encoding: .utf8)
            #expect(
                result.stdout == pinned,
                """
                `mnemo \(path.joined(separator: " ")) --help` differs from \(file.lastPathComponent); \
                rewrite the snapshots with MNEMO_UPDATE_SNAPSHOTS=1 if the change is meant.
                """)
        }
        if !update {
            let pinned = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
                .filter { $0.hasPrefix("help-") }
            #expect(Set(pinned) == Set(paths.map(Self.snapshotName)), "a snapshot of a command that is gone")
        }
    }
}
