import ArgumentParser
import Foundation
import Mnemo
import MnemoEvaluation

struct EvalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Measure retrieval quality on a BEIR dataset: nDCG@10, Recall@10, Recall@100, MRR@10.",
        discussion: """
            Reads a BEIR folder (corpus.jsonl, queries.jsonl, qrels/test.tsv), indexes every \
            document (title and text) as a fact in a scratch database that is deleted afterwards, \
            runs every judged query and scores the results as BEIR does, so the figures compare \
            with published tables. Documents longer than 4,096 characters are cut on a word \
            boundary. Corpus embeddings are cached (in ~/.cache/mnemo/eval unless --cache-dir), so \
            a second semantic or hybrid run does not encode the corpus again.

            Examples:
              mnemo eval --beir data/scifact --mode text
              mnemo eval --beir data/scifact --mode hybrid --json
              mnemo eval --beir data/locomo-dev --per-query ranks.tsv   # one line per query
              mnemo eval --beir data/locomo-dev --context-budget 256 512 1024 2048 --json
              mnemo eval --messages Fixtures/context/knowledge-messages.json --context-budget 300 800

            With --messages instead of --beir, reads a judgement set of everyday messages over a \
            memory file (see Fixtures/context/README.md), ingests the memory into a scratch \
            database and prints, per budget, the share of each message's must-have facts that its \
            context holds and that the hybrid ranking packed into the same budget holds, the \
            messages whose nothing_relevant was wrong, and with --verbose the facts each context \
            left out.
            """
    )

    @Option(help: ArgumentHelp("The BEIR dataset folder.", valueName: "dir"))
    var beir: String?

    @Option(help: ArgumentHelp("A judgement set of messages over a memory (instead of --beir).", valueName: "file"))
    var messages: String?

    @Flag(help: "With --messages: also list the must-have facts each context left out.")
    var verbose = false

    @Option(help: "text, semantic or hybrid.")
    var mode: SearchMode = .hybrid

    @Option(help: ArgumentHelp("The qrels split to evaluate: qrels/<split>.tsv.", valueName: "name"))
    var split = "test"

    @Option(help: ArgumentHelp("Where corpus embeddings are cached.", valueName: "dir"))
    var cacheDir: String?

    @Flag(help: "Do not read or write the embedding cache.")
    var noCache = false

    @Option(help: "Documents per embedding batch and transaction.")
    var batchSize = 64

    @Option(
        help: ArgumentHelp(
            "How hybrid mode fuses the lists: standard, normalized:<text weight>, rrf[:k] or weighted:<text weight>:<saturation>.",
            valueName: "fusion"))
    var fusion: HybridFusion = .standard

    @Option(
        help: ArgumentHelp(
            "Also write each query's rank of its first relevant hit (tab-separated) to this file.", valueName: "file"))
    var perQuery: String?

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Also measure memory contexts at these token budgets: the share of each question's evidence a context holds, against the hybrid ranking packed into the same budget (hybrid mode).",
            valueName: "tokens"))
    var contextBudget: [Int] = []

    @Option(
        help: ArgumentHelp(
            "Also write every judged query's hits with their relevance features and labels (JSON Lines) to this file: the data Scripts/relevance-fit fits SearchHit.relevance on.",
            valueName: "file"))
    var relevancePairs: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard (beir == nil) != (messages == nil) else { throw ValidationError("give either --beir or --messages") }
        guard messages == nil || !contextBudget.isEmpty else {
            throw ValidationError("--messages needs --context-budget")
        }
        guard batchSize > 0 else { throw ValidationError("--batch-size must be at least 1") }
        guard contextBudget.allSatisfy({ $0 >= 0 }) else {
            throw ValidationError("--context-budget must not be negative")
        }
        guard relevancePairs == nil || mode == .hybrid else {
            throw ValidationError("--relevance-pairs needs --mode hybrid")
        }
        guard contextBudget.isEmpty || mode == .hybrid else {
            throw ValidationError("--context-budget needs --mode hybrid")
        }
    }

    func run() async throws {
        if let messages {
            let set = try ContextJudgements(contentsOf: URL(fileURLWithPath: messages))
            let report = try await set.run(embedder: try EmbedderLoader.load(), budgets: contextBudget)
            let output = ContextJudgementOutput(report, verbose: verbose)
            if global.json { try Output.json(output) } else { print(output.text) }
            return
        }
        guard let beir else { throw ValidationError("give either --beir or --messages") }
        let folder = URL(fileURLWithPath: beir)
        let dataset = try BEIRDataset(contentsOf: folder, split: split)
        // Text mode needs no model: none is loaded.
        let embedder = mode == .text ? nil : try EmbedderLoader.load()
        let cacheDirectory =
            noCache ? nil : cacheDir.map { URL(fileURLWithPath: $0) } ?? EvaluationRun.defaultCacheDirectory
        let status = StatusLine.forTerminal()
        var configuration = EvaluationRun.Configuration(
            mode: mode, fusion: fusion, batchSize: batchSize, cacheDirectory: cacheDirectory,
            contextBudgets: contextBudget, categories: ContextRecall.categories(in: folder),
            relevancePairs: relevancePairs != nil)
        // With --db postgres://…: the corpus goes to a namespace of its own there, erased after.
        let opened = Locked<KnowledgeBase?>(nil)
        if let location = try global.postgresLocation {
            let namespace = "eval-\(dataset.name)-\(UUID().uuidString.prefix(8))"
            configuration.openKnowledgeBase = { kbConfiguration in
                var kbConfiguration = kbConfiguration
                kbConfiguration.namespace = namespace
                let kb = try await OpenStores.connect(location, configuration: kbConfiguration, options: .init())
                    .knowledgeBase(namespace: namespace)
                opened.withLock { $0 = kb }
                return kb
            }
        }
        let report: EvaluationRun.Report
        do {
            // Ctrl-C stops the run with its scratch database deleted and its namespace erased.
            report = try await Interruption.cancelling { [configuration] in
                try await EvaluationRun.run(dataset, embedder: embedder, configuration: configuration) { progress in
                    status?.show(progress.phase.rawValue, done: progress.done, total: progress.total)
                }
            }
            _ = try await opened.withLock { $0 }?.eraseNamespace()
        } catch {
            status?.finish()
            _ = try? await opened.withLock { $0 }?.eraseNamespace()
            throw error
        }
        status?.finish()
        if let perQuery {
            do {
                try QueryOutcome.tsv(report.queries).write(toFile: perQuery, atomically: true, encoding: .utf8)
            } catch {
                throw CLIError("cannot write \(perQuery): \(error.localizedDescription)")
            }
        }
        if let relevancePairs {
            do {
                try RelevancePair.jsonLines(report.relevancePairs).write(
                    toFile: relevancePairs, atomically: true, encoding: .utf8)
            } catch {
                throw CLIError("cannot write \(relevancePairs): \(error.localizedDescription)")
            }
        }
        let output = EvalOutput(report, model: embedder?.identity.description)
        if global.json {
            try Output.json(output)
        } else {
            print(output.text)
        }
    }
}
