import ArgumentParser
import Foundation
import Mnemo

struct IngestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Add facts from files: extractor output, topic trees or JSONL.",
        discussion: """
            Formats, detected from each file's first bytes unless --format is given:
              extracted  {"extracted": [record, …]} or [record, …]
              topics     {"topics": [{"path", "facts": [record, …], "children": […]}]}
              jsonl      one record per line, streamed
            A record: {"content", "topic" or "category", "type", "importance",
            "confidence", "source", "namespace", "created_at", …}.

            A bad record is rejected with its line (or record number) and reason, and the other \
            records still land; with --strict a file is stored all or nothing. A fact already \
            stored (same text, ignoring case, accents, spacing and final punctuation) is not \
            added again: its mention count goes up. Each fact is embedded and a near duplicate \
            (same meaning, same identifying details) is merged into the stored fact; \
            --no-embeddings skips both. Every record goes to --namespace (default "default"); \
            a record naming another namespace is rejected unless --namespaces-from-records is \
            given. `-` reads standard input. `mnemo export` writes a file \
            this command reads back unchanged. With --fact-limit, a record that would add a \
            new fact to a namespace holding that many is rejected (quota_exceeded), or with \
            --fact-limit-policy evict makes room by deleting the least valuable stored fact.

            Exit status: 0 when every file was read and each stored or recognised at least one \
            record, even if others were rejected (they are listed; in --json under "rejected"). \
            1 when a file cannot be read, when every record of a file was rejected, or with \
            --strict when a file has any rejected record (nothing of that file is stored). \
            Each failing file gets one line on standard error.
            """
    )

    @Argument(help: ArgumentHelp("The files to read; - for standard input.", valueName: "file"))
    var files: [String]

    @Option(help: "extracted, topics or jsonl; detected when left out.")
    var format: IngestFormat?

    @Flag(help: "Store each file all or nothing: if any record is rejected, store none of it.")
    var strict = false

    @Flag(
        help: ArgumentHelp(
            "Store facts without vectors: much faster, but near duplicates are not merged, and semantic search misses these facts until `mnemo reembed`."
        ))
    var noEmbeddings = false

    @Flag(
        help: ArgumentHelp(
            "Store each record in the namespace its \"namespace\" field names, as when restoring `mnemo export --all-namespaces`. Without it every record goes to --namespace, and a record naming another namespace is rejected (foreign_namespace). Use it for trusted files only."
        ))
    var namespacesFromRecords = false

    @Option(help: ArgumentHelp("Records per transaction.", visibility: .hidden))
    var batchSize: Int?

    @OptionGroup var quota: QuotaOptions

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one file to ingest, or - for standard input") }
        if let batchSize, batchSize < 1 { throw ValidationError("--batch-size must be at least 1") }
    }

    func run() async throws {
        // --no-embeddings is the user's consent to facts without vectors (`mnemo reembed` adds them).
        let knowledgeBase = try await quota.applied(
            to: global.openKnowledgeBase(
                embedder: noEmbeddings ? nil : try EmbedderLoader.load(), acceptsFactsWithoutVectors: noEmbeddings))
        var results: [IngestOutput.File] = []
        for file in files {
            let result = await ingest(file, into: knowledgeBase)
            if let failure = result.failure { Output.note("error: \(file): \(failure)") }
            results.append(result)
        }
        let output = IngestOutput(files: results)
        if global.json {
            try Output.json(output)
        } else {
            print(Output.isTerminal ? output.table() : output.text())
        }
        if results.contains(where: { $0.failure != nil }) { throw ExitCode.failure }
    }

    private func ingest(_ file: String, into knowledgeBase: KnowledgeBase) async -> IngestOutput.File {
        let progressBar = IngestProgressBar.forInput(file)
        var options = IngestOptions(
            format: format, strict: strict,
            namespacePolicy: namespacesFromRecords ? .fromRecords : .pinned, batchSize: batchSize)
        if let progressBar {
            options.progress = { progressBar.update($0) }
        }
        defer { progressBar?.finish() }
        do {
            let report =
                file == "-"
                ? try await knowledgeBase.ingest(fileHandle: .standardInput, options: options)
                : try await knowledgeBase.ingest(contentsOf: URL(fileURLWithPath: file), options: options)
            return IngestOutput.File(file: file, report: report, strict: strict)
        } catch {
            return IngestOutput.File(file: file, error: error)
        }
    }
}

extension IngestFormat: ExpressibleByArgument {}
