import Foundation
import Mnemo

/// The Ingestion article's library examples.
public enum IngestionExamples {
    /// Ingests `url` (a JSONL file) into `kb` and writes a backup next to it.
    public static func run(kb: KnowledgeBase, url: URL, backupURL: URL) async throws {
        // example: ingest-library
        let report = try await kb.ingest(contentsOf: url) // or ingest(data:), ingest(records:)
        print(report.added, report.unchanged, report.rejected) // [IngestRejection]
        try await kb.ingest(contentsOf: url, options: IngestOptions(format: .jsonl, strict: true))
        try await kb.export(to: backupURL, allNamespaces: true) // or export(to: FileHandle), exportedLines()
        // end example
    }

    /// The Ingestion article's example, run in `folder` (the file name is relative there).
    public static func article(kb: KnowledgeBase, folder: URL) async throws {
        // example: ingestion-article
        let report = try await kb.ingest(contentsOf: folder.appendingPathComponent("facts.jsonl"))
        print("\(report.added) added, \(report.unchanged) already known")
        for rejection in report.rejected {
            print(rejection) // line 7: unknown type "opinion" (expected fact, preference, goal or experience)
        }
        // end example
    }
}
