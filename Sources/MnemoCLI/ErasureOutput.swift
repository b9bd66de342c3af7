import Foundation
import Mnemo

/// How `mnemo fact erase`, `forget` and `purge` print an ``ErasureReceipt``.
enum ErasureOutput {
    static func print(_ receipt: ErasureReceipt, _ global: GlobalOptions) throws {
        if global.json {
            try Output.json(receipt)
        } else {
            Swift.print(text(receipt))
        }
    }

    static func text(_ receipt: ErasureReceipt) -> String {
        guard !receipt.factIDs.isEmpty || receipt.topics + receipt.historyRows + receipt.undoRecords > 0 else {
            return "Nothing to erase in \(receipt.namespace)."
        }
        let ids =
            receipt.factIDs.prefix(20).map { "#\($0)" }.joined(separator: ", ")
            + (receipt.factIDs.count > 20 ? ", …" : "")
        var lines = [
            "Erased \(count(receipt.factIDs.count, "fact")) in \(receipt.namespace)"
                + (ids.isEmpty ? "." : ": \(ids)."),
            "Removed \(count(receipt.facts, "fact row")), \(count(receipt.topics, "topic")), "
                + "\(count(receipt.vectors, "vector")), \(count(receipt.historyRows, "history event")), "
                + "\(count(receipt.undoRecords, "undo record")), \(count(receipt.conflictLinks, "conflict link")).",
            "This cannot be undone.",
        ]
        if !receipt.walTruncated {
            lines.append(
                "The -wal file could not be truncated (another connection was reading); run `mnemo fact erase` again to finish."
            )
        }
        return lines.joined(separator: "\n")
    }

    private static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }
}
