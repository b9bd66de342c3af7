import Foundation
import Mnemo

/// The JSON shape of `mnemo ingest --json`, and its text forms.
///
/// `{"added", "merged", "unchanged", "rejected": [{"file", "record", "line", "code", "reason"}],
/// "rejected_count", "evicted", "files": [{"file", "format", "records", "added", …, "error"}]}`:
/// totals over all files first, then one entry per file. `evicted` lists the ids of the facts
/// deleted to make room (`--fact-limit-policy evict`).
struct IngestOutput: Encodable {
    struct Rejection: Encodable {
        var file: String
        var record: Int
        var line: Int?
        var code: String
        var reason: String

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(file, forKey: .file)
            try container.encode(record, forKey: .record)
            try container.encode(line, forKey: .line) // null when unknown, never missing
            try container.encode(code, forKey: .code)
            try container.encode(reason, forKey: .reason)
        }

        private enum CodingKeys: String, CodingKey { case file, record, line, code, reason }
    }

    struct File: Encodable {
        var file: String
        var format: String?
        var records = 0
        var added = 0
        var merged = 0
        var unchanged = 0
        var rejectedCount = 0
        /// False when nothing of the file was stored (it could not be read, or --strict refused it).
        var committed = false
        /// Why the file counts as failed, if it does.
        var error: String?
        /// Listed once, in the totals' `rejected`, not again per file.
        var rejected: [Rejection] = []
        var evicted: [Int64] = []

        var failure: String? { error }

        private enum CodingKeys: String, CodingKey {
            case file, format, records, added, merged, unchanged, rejectedCount, evicted, committed, error
        }

        init(file: String, report: IngestReport, strict: Bool) {
            self.file = file
            format = report.format?.rawValue
            records = report.records
            added = report.added
            merged = report.merged
            unchanged = report.unchanged
            rejectedCount = report.rejectedCount
            committed = report.committed
            evicted = report.evicted
            rejected = report.rejected.map {
                Rejection(file: file, record: $0.record, line: $0.line, code: $0.code.rawValue, reason: $0.reason)
            }
            let first = report.rejected.first.map { " (first: \($0))" } ?? ""
            if !report.committed {
                error =
                    "\(report.rejectedCount) of \(report.records) records rejected, so nothing of the file was stored (--strict)\(first)"
            } else if report.rejectedCount > 0, report.accepted == 0 {
                error =
                    (report.records == 1
                        ? "its only record was rejected" : "all \(report.records) records were rejected") + first
            }
        }

        init(file: String, error: any Error) {
            self.file = file
            self.error = "\(error)"
        }
    }

    var added: Int
    var merged: Int
    var unchanged: Int
    var rejected: [Rejection]
    var rejectedCount: Int
    var evicted: [Int64]
    var files: [File]

    init(files: [File]) {
        self.files = files
        added = files.reduce(0) { $0 + $1.added }
        merged = files.reduce(0) { $0 + $1.merged }
        unchanged = files.reduce(0) { $0 + $1.unchanged }
        rejected = files.flatMap(\.rejected)
        rejectedCount = files.reduce(0) { $0 + $1.rejectedCount }
        evicted = files.flatMap(\.evicted)
    }

    /// Rejections listed on a terminal before the rest are only counted.
    static let terminalRejectionLimit = 20

    /// A table of counts per file, then the first rejections.
    func table() -> String {
        let rows = files.map { file in
            [
                file.file, file.format ?? "–", "\(file.records)", "\(file.added)", "\(file.merged)",
                "\(file.unchanged)", "\(file.rejectedCount)",
                file.error == nil ? "" : file.committed ? "failed" : "nothing stored",
            ]
        }
        var text = Output.table(["file", "format", "records", "added", "merged", "unchanged", "rejected", ""], rows)
        if !rejected.isEmpty {
            text += "\n\n" + rejected.prefix(Self.terminalRejectionLimit).map(Self.line).joined(separator: "\n")
            let more = rejectedCount - min(rejected.count, Self.terminalRejectionLimit)
            if more > 0 { text += "\n… and \(more) more; --json lists them" }
        }
        if !evicted.isEmpty { text += "\n\n" + Self.evictionLine(evicted) }
        return text
    }

    /// One summary line per file, then every rejection, one a line, for pipes and logs.
    func text() -> String {
        let summaries = files.map { file in
            guard file.format != nil else { return "\(file.file): not read, nothing stored" }
            let counts =
                "\(file.file): \(file.added) added, \(file.merged) merged, \(file.unchanged) unchanged, \(file.rejectedCount) rejected"
            return file.committed ? counts : counts + "; nothing stored (--strict)"
        }
        let evictions = evicted.isEmpty ? [] : [Self.evictionLine(evicted)]
        return (summaries + rejected.map(Self.line) + evictions).joined(separator: "\n")
    }

    private static func evictionLine(_ ids: [Int64]) -> String {
        "evicted to make room (--fact-limit): " + ids.map { "#\($0)" }.joined(separator: ", ")
    }

    private static func line(_ rejection: Rejection) -> String {
        let place = rejection.line.map { "line \($0)" } ?? "record \(rejection.record)"
        return "\(rejection.file) \(place): \(rejection.reason) [\(rejection.code)]"
    }
}
