import ArgumentParser
import Foundation
import Mnemo
import MnemoEvaluation

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time search on a synthetic knowledge base, dedupe, or the sentence encoder.",
        discussion: """
            Builds a seeded synthetic corpus (Zipfian vocabulary, a topic tree of about 40 topics, \
            every type and importance, clustered vectors stored with the facts so no encoder runs), \
            loads it into a scratch database (deleted afterwards unless --db is given), and times \
            each search mode with and without filters: p50, p95 and p99 in milliseconds. It also \
            measures the recall of the int8 scan, the memory bandwidth that bounds the vector \
            scan, and, when python3 has numpy, a numpy brute-force scan of the same vectors. \
            The semantic_ann variants build the graph index first (from 20,000 facts) and time it \
            beside the exact scan, unfiltered and with 1 % and 10 % of the facts passing, with \
            their recall@10 against it; a second knowledge base on the same file then reopens \
            the saved graph (build.ann_open_ms, build.ann_first_query_ms). Last, up to 200 \
            facts are deleted and stored again one at a time, and what each commit adds to the \
            next approximate search (its graph insertion) is timed (build.ann_insert_p50_ms, \
            build.ann_insert_p99_ms). The JSON's machine names the processor, its cores and \
            the kernels' path: machines of one kind can differ twofold. With the exact \
            semantic variant, semantic_ann is also timed at several beam widths \
            (semantic_ann_curve), and, when the Python of --peers-python or MNEMO_PYTHON (else \
            python3) has faiss-cpu and usearch, their HNSW graphs are built on the same vectors \
            and timed on the same queries at the same widths (ann_peers). Scripts/ann-curve/run.sh \
            draws the curves.

            With --encoder it times the installed sentence encoder instead: texts per second \
            encoding the lines of --texts FILE (default: the facts of Fixtures/knowledge.jsonl) in \
            batches, and the p50 of one text at a time, as a query is encoded. The environment \
            variable MNEMO_KERNELS (portable, avx2, avx512) or --kernels picks the kernel path.

            Examples:
              mnemo bench
              mnemo bench --facts 100000 --queries 1000
              mnemo bench --facts 10000 --json
              mnemo bench --facts 100000 --dedupe 1000
              mnemo bench --tenants 1000 --facts 500     # one user's semantic search among 1,000 users
              mnemo bench --encoder --json
              mnemo bench --encoder --texts facts.txt --batch 32 --kernels portable
            """
    )

    @Option(help: "The number of facts.")
    var facts = 10_000

    @Option(help: "The number of timed queries per mode.")
    var queries = 500

    @Option(help: "The vector dimension.")
    var dimension = 384

    @Option(help: "The seed of the synthetic corpus.")
    var seed: UInt64 = 42

    @Option(
        name: .customLong("only"),
        help: ArgumentHelp(
            "Time only this variant (text, semantic, semantic_int8, hybrid, each also with _filtered; semantic_ann, "
                + "semantic[_ann]_filtered_1pct, semantic[_ann]_filtered_10pct); repeat for several.",
            valueName: "variant"))
    var variants: [String] = []

    @Option(
        help: ArgumentHelp(
            "Instead: time one user's semantic search in a database of this many users with --facts each, against a lone user's.",
            valueName: "n"))
    var tenants: Int?

    @Flag(inversion: .prefixedNo, help: "Run the numpy brute-force baseline (default: when python3 has numpy).")
    var numpy: Bool?

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Build and time faiss's and usearch's HNSW on the same vectors and queries beside the graph index's "
                + "recall-latency curve (ann_peers; default: when the semantic_ann curve ran and the Python has them).")
    )
    var peers: Bool?

    @Option(
        name: .customLong("peers-python"),
        help: ArgumentHelp(
            "The Python with faiss-cpu and usearch for --peers (default: $MNEMO_PYTHON, else python3).",
            valueName: "path"))
    var peersPython: String?

    @Flag(inversion: .prefixedNo, help: "Measure memory bandwidth.")
    var bandwidth = true

    @Flag(
        help:
            "Also measure the graph index's recall@10 with 5, 10, 20, 30 and 50 % of its nodes deleted (tombstones), beside the same graph saved and reopened and a fresh build."
    )
    var annTombstones = false

    @Option(
        name: .customLong("ann-widths"),
        help: ArgumentHelp(
            "The beam widths of the semantic_ann curve and of the peers' curves, comma-separated "
                + "(default: 16,32,64,96,128,192,256).",
            valueName: "widths"))
    var annWidths: String?

    @Option(
        help: ArgumentHelp(
            "Time dedupe (a dry run) instead of search, on --facts facts plus this many planted near-duplicate pairs.",
            valueName: "pairs"))
    var dedupe: Int?

    @Flag(help: "Time the sentence encoder instead of search.")
    var encoder = false

    @Option(
        name: .customLong("texts"),
        help: ArgumentHelp(
            "With --encoder: a file of texts, one per line (default: the fixture facts).", valueName: "file"))
    var textsFile: String?

    @Option(help: "With --encoder: texts per forward pass.")
    var batch = 32

    @Option(help: "With --encoder: threads per forward pass (default: every active processor).")
    var threads: Int?

    @Option(
        help: ArgumentHelp(
            "With --encoder: the kernel path (portable, avx2, avx512; default: the fastest this CPU runs).",
            valueName: "path"))
    var kernels: String?

    @Option(help: "With --encoder: timed passes over all the texts (the median is reported).")
    var rounds = 5

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        try validateEncoderOptions()
        let known = Set(SearchBenchmark.Variant.all.map(\.name))
        if let unknown = variants.first(where: { !known.contains($0) }) {
            throw ValidationError(
                "unknown variant \"\(unknown)\"; choose from \(known.sorted().joined(separator: ", "))")
        }
        guard facts > 0 else { throw ValidationError("--facts must be at least 1") }
        guard queries > 0 else { throw ValidationError("--queries must be at least 1") }
        guard tenants.map({ $0 > 0 }) ?? true else { throw ValidationError("--tenants must be at least 1") }
        guard (1...4096).contains(dimension) else { throw ValidationError("--dimension must be between 1 and 4096") }
        if let annWidths {
            let widths = annWidths.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
            guard !widths.isEmpty, widths.allSatisfy({ ($0 ?? 0) > 0 }) else {
                throw ValidationError("--ann-widths must list positive beam widths, such as 64,128,256")
            }
        }
    }

    /// The beam widths of `semantic_ann_curve`, and of the peers' curves, unless `--ann-widths` names others.
    static let curveWidths = [16, 32, 64, 96, 128, 192, 256]

    var curveWidths: [Int] { annWidths.map { $0.split(separator: ",").compactMap { Int($0) } } ?? Self.curveWidths }

    var selectedVariants: [SearchBenchmark.Variant] {
        variants.isEmpty
            ? SearchBenchmark.Variant.all : SearchBenchmark.Variant.all.filter { variants.contains($0.name) }
    }

    func run() async throws {
        if encoder { return try runEncoder() }
        if let dedupe { return try await runDedupe(plantedPairs: dedupe) }
        if let tenants {
            return try await TenantBenchOutput.run(
                tenants: tenants, facts: facts, queries: queries, seed: seed, json: global.json)
        }
        let status = StatusLine.forTerminal()
        let clock = ContinuousClock()
        status?.show("generating \(facts.formatted()) facts…", force: true)
        let generationStart = clock.now
        let corpus = SyntheticCorpus(.init(facts: facts, queries: queries, dimension: dimension, seed: seed))
        let generationTime = clock.now - generationStart

        let variantNames = Set(selectedVariants.map(\.name))
        let configuration = SearchBenchmark.Configuration(
            databasePath: global.db, variants: selectedVariants, curveWidths: curveWidths,
            tombstoneShares: annTombstones ? [0.05, 0.1, 0.2, 0.3, 0.5] : [])
        // Ctrl-C cancels the run (a graph build stops at once) and the scratch database is removed.
        let report = try await Interruption.cancelling {
            try await SearchBenchmark.run(corpus, configuration: configuration) { progress in
                switch progress.phase {
                case "loading": status?.show("loading facts", done: progress.done, total: progress.total)
                case _ where variantNames.contains(progress.phase):
                    status?.show("timing \(progress.phase)", done: progress.done, total: progress.total)
                case _ where progress.total > 1:
                    status?.show(progress.phase, done: progress.done, total: progress.total)
                default: status?.show(progress.phase + "…", force: true)
                }
            }
        }
        var output = BenchOutput(report, seed: seed, generationTime: generationTime)

        if bandwidth {
            status?.show("measuring memory bandwidth…", force: true)
            output.addBandwidth(MemoryBandwidth.measure())
        }
        if numpy ?? NumpyBaseline.isAvailable {
            status?.show("running the numpy baseline…", force: true)
            output.addNumpy(
                try NumpyBaseline.run(corpus), corpus: corpus, factIDs: report.factIDs,
                exact: report.exactSemanticRankings)
        }
        if peers != false, !report.approximateCurve.isEmpty, !report.exactSemanticRankings.isEmpty {
            let python = peersPython ?? ProcessInfo.processInfo.environment["MNEMO_PYTHON"] ?? "python3"
            let importable = AnnPeersBaseline.importable(python: python)
            if importable.isEmpty {
                status?.finish()
                Output.note(
                    "ann peers skipped: \(python) cannot import faiss or usearch "
                        + "(pip install faiss-cpu usearch numpy; --peers-python PATH or MNEMO_PYTHON)")
            } else {
                status?.show("building and timing \(importable.joined(separator: " and "))…", force: true)
                let peersRun = try AnnPeersBaseline.run(
                    corpus, factIDs: report.factIDs, exact: report.exactSemanticRankings, widths: curveWidths,
                    python: python, peers: importable)
                output.annPeers = peersRun.report
                let missing = AnnPeersBaseline.names.filter { !importable.contains($0) }
                let notes = peersRun.notes + missing.map { "\($0) skipped: \(python) cannot import it" }
                if !notes.isEmpty {
                    status?.finish()
                    for note in notes { Output.note("ann peers: " + note) }
                }
            }
        }
        status?.finish()
        if global.json {
            try Output.json(output)
        } else {
            print(output.text)
        }
    }
}
