import ArgumentParser
import Foundation
import Mnemo

struct PurgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "purge",
        abstract: "Erase expired facts and drop undo records older than the undo window.",
        discussion: """
            A fact whose expires_at has passed is left out of search and listings at once; purge \\
            erases it for good (as `mnemo fact erase` does). Undo records older than the window \\
            go too: those operations can no longer be undone. `mnemo serve --purge-interval` runs \\
            this periodically. Without --namespace, every namespace is purged.
              mnemo purge --undo-older-than 7d
            """)

    @Option(
        help: ArgumentHelp(
            "The undo window: records older than this are dropped (30d, 12h, 90m, 3600s).", valueName: "duration"))
    var undoOlderThan = Duration.days(30)

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let kb = try await global.openExistingKnowledgeBase()
        var namespaces = [String]()
        if let namespace = global.namespace { namespaces = [namespace] } else { namespaces = try await kb.namespaces() }
        var receipts: [ErasureReceipt] = []
        for namespace in namespaces {
            receipts.append(
                try await kb.knowledgeBase(forNamespace: namespace).purge(undoOlderThan: undoOlderThan.seconds))
        }
        if global.json {
            try Output.json(receipts)
            return
        }
        for receipt in receipts {
            print(
                "\(receipt.namespace): erased \(receipt.factIDs.count) expired facts, dropped \(receipt.undoRecords) undo records."
            )
        }
        if receipts.isEmpty { print("Nothing to purge.") }
    }

    /// A length of time written as a number and a unit: `30d`, `12h`, `90m`, `3600s`.
    struct Duration: ExpressibleByArgument {
        var seconds: TimeInterval

        static func days(_ days: Double) -> Duration { Duration(seconds: days * 86_400) }

        init(seconds: TimeInterval) { self.seconds = seconds }

        init?(argument: String) {
            let units: [Character: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
            guard let unit = argument.last.flatMap({ units[$0] }), let value = Double(argument.dropLast()),
                value.isFinite, value >= 0
            else { return nil }
            seconds = value * unit
        }

        var defaultValueDescription: String {
            seconds.truncatingRemainder(dividingBy: 86_400) == 0 ? "\(Int(seconds / 86_400))d" : "\(Int(seconds))s"
        }
    }
}
