import Foundation
import MnemoEvaluation

/// The reference point for the vector scan: a numpy brute-force top-10 (one matrix-vector
/// product, then `argpartition`) over the same vectors and query vectors, run by `python3`.
///
/// The vectors are handed over as raw little-endian float32 files, so both sides scan exactly
/// the same matrix. The scan runs twice, with the BLAS's default threads and with one thread,
/// and the faster run is the baseline: on a busy machine a multi-threaded BLAS can wait far
/// longer for its second thread than the work takes.
enum NumpyBaseline {
    struct Result {
        var stats: LatencyStats
        /// The BLAS threads of the faster run: `default` or `1`.
        var threads: String
        var numpyVersion: String
        /// Row indices of the top 10 of the first queries, best first.
        var topRows: [[Int]]
    }

    /// Whether `python3` can import numpy.
    static var isAvailable: Bool {
        (try? ChildProcess.run("python3", ["-c", "import numpy"]).status) == 0
    }

    static func run(_ corpus: SyntheticCorpus, k: Int = 10, warmup: Int = 10) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-numpy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let matrix = folder.appendingPathComponent("matrix.f32")
        let queries = folder.appendingPathComponent("queries.f32")
        let scriptURL = folder.appendingPathComponent("scan.py")
        try ChildProcess.rawFloats(corpus.vectors).write(to: matrix)
        try ChildProcess.rawFloats(corpus.queries.flatMap(\.vector)).write(to: queries)
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)
        var results: [Result] = []
        for threads in ["default", "1"] {
            var environment: [String: String] = [:]
            if threads == "1" {
                for name in ["OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"] { environment[name] = "1" }
            }
            let run = try ChildProcess.run(
                "python3",
                [scriptURL.path, matrix.path, queries.path, "\(corpus.configuration.dimension)", "\(k)", "\(warmup)"],
                environment: environment)
            guard run.status == 0, let data = run.output.data(using: .utf8),
                let output = try? JSONDecoder().decode(Output.self, from: data)
            else {
                throw CLIError("the numpy baseline failed: \(run.output.suffix(300))")
            }
            results.append(
                Result(
                    stats: LatencyStats(samples: output.seconds.map { .seconds($0) }), threads: threads,
                    numpyVersion: output.numpy, topRows: output.top))
        }
        return results.min { $0.stats.p50 < $1.stats.p50 }!
    }

    private struct Output: Decodable {
        var seconds: [Double]
        var top: [[Int]]
        var numpy: String
    }

    private static let script = """
        import json, sys, time
        import numpy as np

        matrix_path, queries_path, dimension, k, warmup = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        matrix = np.fromfile(matrix_path, dtype="<f4").reshape(-1, dimension)
        queries = np.fromfile(queries_path, dtype="<f4").reshape(-1, dimension)

        def search(query):
            scores = matrix @ query
            if k >= len(scores):
                return np.argsort(-scores)[:k]
            best = np.argpartition(-scores, k)[:k]
            return best[np.argsort(-scores[best])]

        for query in queries[:warmup]:
            search(query)
        seconds, top = [], []
        for query in queries:
            start = time.perf_counter()
            rows = search(query)
            seconds.append(time.perf_counter() - start)
            if len(top) < 50:
                top.append([int(row) for row in rows])
        print(json.dumps({"seconds": seconds, "top": top, "numpy": np.__version__}))
        """
}
