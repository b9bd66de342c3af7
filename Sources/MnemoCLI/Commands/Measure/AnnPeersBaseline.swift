import Foundation
import MnemoEvaluation

/// The anchors of the graph index's recall–latency curve: faiss's and usearch's HNSW graphs
/// built and searched by a Python that has them (faiss-cpu and usearch from PyPI), on the same
/// vectors and queries as the run, at the same beam widths (faiss's `efSearch`, usearch's
/// `expansion_search`): `ann_peers` in `mnemo bench --json`.
///
/// As for ``NumpyBaseline``, the vectors are handed over as raw little-endian float32 files. Only
/// the active facts are indexed, the ones Mnemo's unfiltered search may return (3 % of the
/// synthetic facts are inactive; Mnemo's graph holds them too and skips them while walking), so
/// that each peer's top 10 is compared with the exact scan's top 10 of the same run
/// (``SearchBenchmark/Report/exactSemanticRankings``): recall@10 is the share of it found.
///
/// Both peers build with ``buildThreads`` threads (as Mnemo builds its graph) and answer one
/// query per call on one thread, warmed up first, as Mnemo's searches are timed. Their times
/// are of the index call from Python (a few microseconds of which are the interpreter's);
/// Mnemo's are of a whole ``KnowledgeBase`` search (query vector, graph walk, rescoring,
/// reading the 10 facts from SQLite).
enum AnnPeersBaseline {
    /// The peers, in the order they run.
    static let names = ["faiss", "usearch"]

    /// Threads a peer's build uses: every core, up to 8, as Mnemo's graph build.
    static var buildThreads: Int { min(8, ProcessInfo.processInfo.activeProcessorCount) }

    /// `ann_peers`: each peer that ran, by name.
    struct Report: Encodable, Equatable {
        var peers: [String: Peer]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: NameKey.self)
            for (name, peer) in peers.sorted(by: { $0.key < $1.key }) {
                try container.encode(peer, forKey: NameKey(name))
            }
        }
    }

    struct Peer: Encodable, Equatable {
        /// The package's version, as the package reports it.
        var version: String
        /// What was built: the index type and its parameters.
        var index: String
        var python: String
        /// Vectors indexed (the active facts).
        var vectors: Int
        var buildSeconds: Double
        var buildVectorsPerSecond: Double
        var buildThreads: Int
        /// One query per call, on one thread, at each width.
        var curve: [Point]
    }

    struct Point: Encodable, Equatable {
        var width: Int
        var p50Ms: Double
        var p95Ms: Double
        var p99Ms: Double
        var meanMs: Double
        var recallAt10: Double

        enum CodingKeys: String, CodingKey {
            case width, p50Ms, p95Ms, p99Ms, meanMs
            case recallAt10 = "recall_at_10"
        }
    }

    /// What the script prints: for each peer, its run or why it could not run.
    struct ScriptOutput: Decodable {
        struct PeerRun: Decodable {
            var version: String?
            var index: String?
            var buildSeconds: Double?
            var buildThreads: Int?
            var curve: [Width]?
            var error: String?

            enum CodingKeys: String, CodingKey {
                case version, index, curve, error
                case buildSeconds = "build_seconds"
                case buildThreads = "build_threads"
            }
        }

        struct Width: Decodable {
            var width: Int
            /// Each query's time, in order.
            var seconds: [Double]
            /// Each query's rows (of the matrix handed over), best first.
            var top: [[Int]]
        }

        var peers: [String: PeerRun]
    }

    /// The peers `python` can import, by name (absent when it cannot be started).
    static func importable(python: String) -> [String] {
        names.filter { name in
            (try? ChildProcess.run(python, ["-c", "import numpy, \(name)"]).status) == 0
        }
    }

    /// Runs the peers among `peers` over `corpus`'s active facts and its queries, at `widths`,
    /// and measures each one's recall@10 against `exact` (the exact top ids of each query).
    /// Returns the report and one note per peer that failed.
    static func run(
        _ corpus: SyntheticCorpus, factIDs: [Int64], exact: [[Int64]], widths: [Int], python: String,
        peers: [String], k: Int = 10, warmup: Int = 10
    ) throws -> (report: Report, notes: [String]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-peers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let dimension = corpus.configuration.dimension
        let rows = corpus.facts.indices.filter { corpus.facts[$0].isActive }
        var matrix = [Float]()
        matrix.reserveCapacity(rows.count * dimension)
        for row in rows { matrix += corpus.vector(ofFact: row) }
        let matrixURL = folder.appendingPathComponent("matrix.f32")
        let queriesURL = folder.appendingPathComponent("queries.f32")
        let scriptURL = folder.appendingPathComponent("peers.py")
        try ChildProcess.rawFloats(matrix).write(to: matrixURL)
        matrix = []
        try ChildProcess.rawFloats(corpus.queries.flatMap(\.vector)).write(to: queriesURL)
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)
        let outputURL = folder.appendingPathComponent("output.json")
        let arguments = [
            scriptURL.path, matrixURL.path, queriesURL.path, outputURL.path, "\(dimension)", "\(k)", "\(warmup)",
            "\(buildThreads)", widths.map(String.init).joined(separator: ","), peers.joined(separator: ","),
        ]
        let process = try ChildProcess.run(python, arguments)
        guard process.status == 0, let data = try? Data(contentsOf: outputURL) else {
            throw CLIError("the ANN peers baseline failed: \(process.output.suffix(300))")
        }
        return try report(
            from: data, rowIDs: rows.map { factIDs[$0] }, exact: exact, python: python)
    }

    /// The report from the script's output `data`: `rowIDs` maps the rows handed over to fact
    /// ids, `exact` holds each query's exact top ids. A peer that failed becomes a note.
    static func report(from data: Data, rowIDs: [Int64], exact: [[Int64]], python: String) throws -> (
        report: Report, notes: [String]
    ) {
        let output = try JSONDecoder().decode(ScriptOutput.self, from: data)
        var peers: [String: Peer] = [:]
        var notes: [String] = []
        for (name, run) in output.peers.sorted(by: { $0.key < $1.key }) {
            guard let version = run.version, let curve = run.curve, let seconds = run.buildSeconds, run.error == nil
            else {
                notes.append("\(name) did not run: \(run.error ?? "no result")")
                continue
            }
            let points = try curve.map { width in
                guard !width.seconds.isEmpty else { throw CLIError("\(name) timed no query at width \(width.width)") }
                let stats = LatencyStats(samples: width.seconds.map { .seconds($0) })
                let found = try width.top.map { rows in
                    try rows.filter { $0 >= 0 }.map { row in
                        guard rowIDs.indices.contains(row) else { throw CLIError("\(name) returned row \(row)") }
                        return rowIDs[row]
                    }
                }
                return Point(
                    width: width.width, p50Ms: stats.p50.milliseconds, p95Ms: stats.p95.milliseconds,
                    p99Ms: stats.p99.milliseconds, meanMs: stats.mean.milliseconds,
                    recallAt10: recall(found, against: exact))
            }
            peers[name] = Peer(
                version: version, index: run.index ?? name, python: python, vectors: rowIDs.count,
                buildSeconds: seconds, buildVectorsPerSecond: Double(rowIDs.count) / max(seconds, 1e-9),
                buildThreads: run.buildThreads ?? 1, curve: points)
        }
        return (Report(peers: peers), notes)
    }

    /// The mean share of each query's exact top ids found among its approximate ones, over the
    /// queries whose exact list is not empty (as ``SearchBenchmark`` measures Mnemo's).
    static func recall(_ found: [[Int64]], against exact: [[Int64]]) -> Double {
        let pairs = zip(found, exact).filter { !$0.1.isEmpty }
        guard !pairs.isEmpty else { return 1 }
        return pairs.reduce(0.0) { $0 + Double(Set($1.0).intersection($1.1).count) / Double($1.1.count) }
            / Double(pairs.count)
    }

    private struct NameKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private static let script = """
        import json, sys, time
        import numpy as np

        (matrix_path, queries_path, output_path, dimension, k, warmup, threads, widths, names) = sys.argv[1:10]
        dimension, k, warmup, threads = int(dimension), int(k), int(warmup), int(threads)
        widths = [int(width) for width in widths.split(",")]
        matrix = np.ascontiguousarray(np.fromfile(matrix_path, dtype="<f4").reshape(-1, dimension))
        queries = np.fromfile(queries_path, dtype="<f4").reshape(-1, dimension)
        singles = [np.ascontiguousarray(queries[i : i + 1]) for i in range(len(queries))]

        def curve(search, set_width):
            points = []
            for width in widths:
                set_width(width)
                for query in singles[:warmup]:
                    search(query)
                seconds, top = [], []
                for query in singles:
                    start = time.perf_counter()
                    rows = search(query)
                    seconds.append(time.perf_counter() - start)
                    top.append([int(row) for row in rows])
                points.append({"width": width, "seconds": seconds, "top": top})
            return points

        def run_faiss():
            import faiss
            faiss.omp_set_num_threads(threads)
            index = faiss.IndexHNSWFlat(dimension, 16, faiss.METRIC_INNER_PRODUCT)
            index.hnsw.efConstruction = 128
            start = time.perf_counter()
            index.add(matrix)
            build = time.perf_counter() - start
            faiss.omp_set_num_threads(1)

            def set_width(width):
                index.hnsw.efSearch = width

            def search(query):
                return index.search(query, k)[1][0]

            return {
                "version": faiss.__version__, "build_seconds": build, "build_threads": threads,
                "index": "IndexHNSWFlat, M 16, efConstruction 128, inner product, float32",
                "curve": curve(search, set_width),
            }

        def run_usearch():
            import usearch
            from usearch.index import Index
            index = Index(ndim=dimension, metric="ip", dtype="f32", connectivity=16, expansion_add=128)
            start = time.perf_counter()
            index.add(np.arange(len(matrix), dtype=np.uint64), matrix, threads=threads)
            build = time.perf_counter() - start

            def set_width(width):
                index.expansion_search = width

            def search(query):
                return index.search(query[0], k, threads=1).keys

            return {
                "version": usearch.__version__, "build_seconds": build, "build_threads": threads,
                "index": "Index, connectivity 16, expansion_add 128, metric ip, dtype f32",
                "curve": curve(search, set_width),
            }

        peers = {}
        for name in names.split(","):
            try:
                peers[name] = {"faiss": run_faiss, "usearch": run_usearch}[name]()
            except Exception as error:
                peers[name] = {"error": f"{type(error).__name__}: {error}"}
        with open(output_path, "w") as output:
            json.dump({"peers": peers}, output)
        """
}
