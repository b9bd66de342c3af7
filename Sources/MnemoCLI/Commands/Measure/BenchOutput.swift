import Foundation
import Mnemo
import MnemoEvaluation

/// What `mnemo bench` prints: `facts`, `dimension`, then `text`, `semantic` and `hybrid` with
/// `p50_ms`, `p95_ms`, `p99_ms` (the keys scripts read first, kept stable), plus the other variants
/// and figures.
struct BenchOutput: Encodable {
    struct Latency: Encodable {
        var p50Ms: Double
        var p95Ms: Double
        var p99Ms: Double
        var meanMs: Double
        var maxMs: Double
        /// CPU time of all threads per query.
        var cpuMs: Double?
        /// For the approximate variants: the share of the exact scan's top 10 (same filter) found.
        var recallAt10: Double?
        /// For the approximate variants: how many queries each path answered (`graph`,
        /// `passingRows`, `graphThenScan`, …).
        var paths: [String: Int]?
        /// For a point of `semantic_ann_curve`: the beam width.
        var width: Int?
        /// For an entry of `semantic_ann_filtered_paths`: the variant and the path forced on it.
        var variant: String?
        var forcedPath: String?

        enum CodingKeys: String, CodingKey {
            case p50Ms, p95Ms, p99Ms, meanMs, maxMs, cpuMs, paths, width, variant, forcedPath
            case recallAt10 = "recall_at_10"
        }

        init(_ stats: LatencyStats, cpu: Duration?) {
            p50Ms = stats.p50.milliseconds
            p95Ms = stats.p95.milliseconds
            p99Ms = stats.p99.milliseconds
            meanMs = stats.mean.milliseconds
            maxMs = stats.maximum.milliseconds
            cpuMs = cpu?.milliseconds
        }
    }

    struct Build: Encodable {
        var generateSeconds: Double
        var loadSeconds: Double
        var factsPerSecond: Double
        var indexLoadMs: Double
        var databaseBytes: Int
        /// The graph index's build: facts inserted per second (one thread), when it was built.
        var annVectorsPerSecond: Double?
        var annBuildSeconds: Double?
        /// Reading the saved graph index in a second knowledge base on the same file (its
        /// vectors already loaded), and that knowledge base's first approximate search after.
        var annOpenMs: Double?
        var annFirstQueryMs: Double?
        /// What a one-fact commit after the build adds to the next approximate search: the
        /// graph's tombstone and insertion, p50 and p99 over up to 200 commits.
        var annInsertP50Ms: Double?
        var annInsertP99Ms: Double?
        /// Resident bytes per fact of the graph index (int8 codes, links, filter columns, ids)
        /// and of the vector index's rows (attributes, ids; `Float` vectors and int8 codes while
        /// they are small), and the bytes per fact of the rows' vectors and codes kept in a mapped
        /// file, which the page cache holds as searches read them.
        var annBytesPerFact: Double?
        var vectorIndexBytesPerFact: Double?
        var vectorIndexMappedBytesPerFact: Double?
    }

    /// The memory bandwidth and what it implies for the vector scans.
    struct Bandwidth: Encodable {
        var gbPerS: Double
        var bufferBytes: Int
        var threads: Int
        var exactScanBytes: Int
        var exactScanLowerBoundMs: Double
        var int8ScanBytes: Int
        var int8ScanLowerBoundMs: Double
    }

    struct Numpy: Encodable {
        var p50Ms: Double
        var p95Ms: Double
        var p99Ms: Double
        var version: String
        /// The BLAS threads of the faster of the two runs (`default` or `1`).
        var threads: String
        /// The share of numpy's top 10 that Mnemo's exact semantic search also returned.
        var top10Agreement: Double?
        /// numpy's p50 over Mnemo's: above 1 means Mnemo is faster.
        var semanticSpeedup: Double?
        var semanticInt8Speedup: Double?
    }

    var facts: Int
    var dimension: Int
    var queries: Int
    var seed: UInt64
    var latencies: [(name: String, latency: Latency)]
    var int8RecallAt10: Double?
    var int8RecallAt10Filtered: Double?
    var build: Build
    var memoryBandwidth: Bandwidth?
    var numpy: Numpy?
    /// The unfiltered approximate search at several beam widths: `semantic_ann_curve`.
    var semanticAnnCurve: [Latency]?
    /// The approximate variants with a share passing, timed with each path forced:
    /// `semantic_ann_filtered_paths`.
    var semanticAnnFilteredPaths: [Latency]?

    /// faiss's and usearch's HNSW on the same vectors and queries at the same widths: `ann_peers`.
    var annPeers: AnnPeersBaseline.Report?

    /// `mnemo bench --ann-tombstones`: the graph index's recall as its nodes become tombstones.
    var annTombstones: [Tombstones]?

    struct Tombstones: Encodable {
        var share: Double
        /// The graph holding the tombstones (with their codes, as in memory).
        var recallAt10: Double
        /// The same graph saved and read back (tombstones without codes).
        var reopenedRecallAt10: Double
        /// A graph built afresh from the facts left.
        var rebuiltRecallAt10: Double
        /// Queries each of the three would have answered with the scan instead.
        var fallbacks: [Int]
        /// Each one's mean nodes visited and mean walk time per query.
        var meanVisits: [Double]
        var meanWalkMs: [Double]

        enum CodingKeys: String, CodingKey {
            case share, fallbacks, meanVisits, meanWalkMs
            case recallAt10 = "recall_at_10"
            case reopenedRecallAt10 = "reopened_recall_at_10"
            case rebuiltRecallAt10 = "rebuilt_recall_at_10"
        }
    }

    init(_ report: SearchBenchmark.Report, seed: UInt64, generationTime: Duration) {
        facts = report.facts
        dimension = report.dimension
        queries = report.queries
        self.seed = seed
        latencies = report.latencies.map {
            var latency = Latency($0.stats, cpu: report.cpuPerQuery[$0.variant.name])
            latency.recallAt10 = report.approximateRecallAt10[$0.variant.name]
            latency.paths = report.approximatePaths[$0.variant.name]
            return ($0.variant.name, latency)
        }
        int8RecallAt10 = report.int8RecallAt10
        int8RecallAt10Filtered = report.int8RecallAt10Filtered
        build = Build(
            generateSeconds: generationTime.seconds, loadSeconds: report.loadTime.seconds,
            factsPerSecond: report.loadRate, indexLoadMs: report.indexLoadTime.milliseconds,
            databaseBytes: report.databaseBytes,
            annVectorsPerSecond: report.graphBuildTime.map { Double(report.facts) / max($0.seconds, 1e-9) },
            annBuildSeconds: report.graphBuildTime?.seconds, annOpenMs: report.graphOpenTime?.milliseconds,
            annFirstQueryMs: report.firstQueryAfterGraphOpen?.milliseconds,
            annInsertP50Ms: report.graphInsertCost?.p50.milliseconds,
            annInsertP99Ms: report.graphInsertCost?.p99.milliseconds,
            annBytesPerFact: report.vectorIndexBytes.flatMap {
                $0.graph > 0 ? Double($0.graph) / Double(max(1, report.facts)) : nil
            },
            vectorIndexBytesPerFact: report.vectorIndexBytes.map { Double($0.rows) / Double(max(1, report.facts)) },
            vectorIndexMappedBytesPerFact: report.vectorIndexBytes.map {
                Double($0.mapped) / Double(max(1, report.facts))
            })
        semanticAnnCurve =
            report.approximateCurve.isEmpty
            ? nil
            : report.approximateCurve.map {
                var point = Latency($0.stats, cpu: nil)
                point.width = $0.width
                point.recallAt10 = $0.recallAt10
                return point
            }
        semanticAnnFilteredPaths =
            report.filteredPaths.isEmpty
            ? nil
            : report.filteredPaths.map {
                var entry = Latency($0.stats, cpu: nil)
                entry.variant = $0.variant
                entry.forcedPath = $0.path
                entry.recallAt10 = $0.recallAt10
                entry.paths = $0.paths
                return entry
            }
        annTombstones =
            report.tombstoneRecall.isEmpty
            ? nil
            : report.tombstoneRecall.map {
                Tombstones(
                    share: $0.share, recallAt10: $0.recall, reopenedRecallAt10: $0.reopenedRecall,
                    rebuiltRecallAt10: $0.rebuiltRecall, fallbacks: $0.fallbacks, meanVisits: $0.meanVisits,
                    meanWalkMs: $0.meanWalkMilliseconds)
            }
    }

    func latency(_ name: String) -> Latency? {
        latencies.first { $0.name == name }?.latency
    }

    /// Every row is read by the scans: the vector (or its int8 codes and scale) and the 13 bytes
    /// of attributes the filter tests (namespace, flags, topic).
    mutating func addBandwidth(_ measurement: MemoryBandwidth.Measurement) {
        let exact = facts * (4 * dimension + 13)
        let int8 = facts * (dimension + 4 + 13)
        memoryBandwidth = Bandwidth(
            gbPerS: measurement.gigabytesPerSecond, bufferBytes: measurement.bytes, threads: measurement.threads,
            exactScanBytes: exact, exactScanLowerBoundMs: measurement.lowerBound(forReading: exact).milliseconds,
            int8ScanBytes: int8, int8ScanLowerBoundMs: measurement.lowerBound(forReading: int8).milliseconds)
    }

    /// numpy scans every row, Mnemo only active facts (the default filter): the agreement is
    /// measured over the active facts in numpy's top 10, all of which Mnemo must return.
    mutating func addNumpy(_ result: NumpyBaseline.Result, corpus: SyntheticCorpus, factIDs: [Int64], exact: [[Int64]])
    {
        let pairs = Array(zip(result.topRows, exact))
        let agreement =
            pairs.isEmpty
            ? nil
            : pairs.reduce(0.0) { total, pair in
                let numpyIDs = Set(pair.0.filter { corpus.facts[$0].isActive }.map { factIDs[$0] })
                return total + Double(numpyIDs.intersection(pair.1).count) / Double(max(1, numpyIDs.count))
            } / Double(pairs.count)
        let p50 = result.stats.p50.milliseconds
        numpy = Numpy(
            p50Ms: p50, p95Ms: result.stats.p95.milliseconds, p99Ms: result.stats.p99.milliseconds,
            version: result.numpyVersion, threads: result.threads, top10Agreement: agreement,
            semanticSpeedup: latency("semantic").map { p50 / $0.p50Ms },
            semanticInt8Speedup: latency("semantic_int8").map { p50 / $0.p50Ms })
    }

    /// The SQLite the figures were measured with: its version and whether it counted its memory
    /// (see `SQLiteProcessSettings`), which costs searches on several threads.
    private struct SQLiteSettings: Encodable {
        let version = SQLiteProcessSettings.version
        let memoryStatistics = SQLiteProcessSettings.keepsMemoryStatistics

        enum CodingKeys: String, CodingKey {
            case version
            case memoryStatistics = "memory_statistics"
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(facts, forKey: Key("facts"))
        try container.encode(dimension, forKey: Key("dimension"))
        try container.encode(queries, forKey: Key("queries"))
        try container.encode(seed, forKey: Key("seed"))
        for (name, latency) in latencies { try container.encode(latency, forKey: Key(name)) }
        try container.encodeIfPresent(int8RecallAt10, forKey: Key("int8_recall_at_10"))
        try container.encodeIfPresent(int8RecallAt10Filtered, forKey: Key("int8_recall_at_10_filtered"))
        try container.encode(build, forKey: Key("build"))
        try container.encode(SQLiteSettings(), forKey: Key("sqlite"))
        try container.encode(BenchMachine(), forKey: Key("machine"))
        try container.encodeIfPresent(memoryBandwidth, forKey: Key("memory_bandwidth"))
        try container.encodeIfPresent(numpy, forKey: Key("numpy"))
        try container.encodeIfPresent(semanticAnnCurve, forKey: Key("semantic_ann_curve"))
        try container.encodeIfPresent(semanticAnnFilteredPaths, forKey: Key("semantic_ann_filtered_paths"))
        try container.encodeIfPresent(annPeers, forKey: Key("ann_peers"))
        try container.encodeIfPresent(annTombstones, forKey: Key("ann_tombstones"))
    }

    /// The human-readable report.
    var text: String {
        var lines = [
            "\(facts.formatted()) facts, \(dimension) dimensions, \(queries) queries per mode (seed \(seed))",
            "on \(BenchMachine().description)",
        ]
        lines.append(
            String(
                format: "loaded in %.1f s (%.0f facts/s); vector index read in %.0f ms; database %.0f MB",
                build.loadSeconds, build.factsPerSecond, build.indexLoadMs, Double(build.databaseBytes) / 1e6))
        lines.append("")
        lines.append(
            Output.table(
                ["mode", "p50 ms", "p95 ms", "p99 ms", "mean ms", "cpu ms"],
                latencies.map { name, latency in
                    [name]
                        + [latency.p50Ms, latency.p95Ms, latency.p99Ms, latency.meanMs, latency.cpuMs ?? .nan].map {
                            String(format: "%.3f", $0)
                        }
                }))
        lines.append("")
        if let seconds = build.annBuildSeconds, let rate = build.annVectorsPerSecond {
            lines.append(String(format: "graph index built in %.1f s (%.0f vectors/s)", seconds, rate))
        }
        if let open = build.annOpenMs, let first = build.annFirstQueryMs {
            lines.append(
                String(format: "saved graph index reopened in %.0f ms; first search after it %.2f ms", open, first))
        }
        if let p50 = build.annInsertP50Ms, let p99 = build.annInsertP99Ms {
            lines.append(
                String(
                    format: "a one-fact commit adds %.2f ms (p50), %.2f ms (p99) to the next approximate search",
                    p50, p99))
        }
        for (name, latency) in latencies {
            guard let recall = latency.recallAt10 else { continue }
            let paths = (latency.paths ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            lines.append(
                String(format: "%@ recall@10 against the exact scan: %.4f", name, recall) + " (paths: "
                    + paths.joined(separator: ", ") + ")")
        }
        if let graph = build.annBytesPerFact, let rows = build.vectorIndexBytesPerFact {
            lines.append(
                String(
                    format:
                        "resident bytes per fact: graph index %.0f, vector index rows %.0f (attributes); "
                        + "%.0f in mapped files (Float vectors and codes, read as searches need them)",
                    graph, rows, build.vectorIndexMappedBytesPerFact ?? 0))
        }
        for point in semanticAnnCurve ?? [] {
            lines.append(
                String(
                    format: "semantic_ann at width %d: p50 %.3f ms, p99 %.3f ms, recall@10 %.4f", point.width ?? 0,
                    point.p50Ms, point.p99Ms, point.recallAt10 ?? 0))
        }
        for entry in semanticAnnFilteredPaths ?? [] {
            lines.append(
                String(
                    format: "%@ by %@: p50 %.3f ms, p99 %.3f ms, recall@10 %.4f", entry.variant ?? "",
                    entry.forcedPath ?? "", entry.p50Ms, entry.p99Ms, entry.recallAt10 ?? 0))
        }
        for (name, peer) in (annPeers?.peers ?? [:]).sorted(by: { $0.key < $1.key }) {
            lines.append(
                "\(name) \(peer.version) (\(peer.index)): built \(peer.vectors.formatted()) vectors in "
                    + String(
                        format: "%.1f s (%.0f vectors/s, %d threads)", peer.buildSeconds, peer.buildVectorsPerSecond,
                        peer.buildThreads))
            for point in peer.curve {
                lines.append(
                    String(
                        format: "  %@ at width %d: p50 %.3f ms, p99 %.3f ms, recall@10 %.4f", name, point.width,
                        point.p50Ms, point.p99Ms, point.recallAt10))
            }
        }
        for point in annTombstones ?? [] {
            lines.append(
                String(
                    format: "graph index with %.0f%% tombstones: recall@10 %.4f, saved and reopened %.4f, rebuilt %.4f",
                    100 * point.share, point.recallAt10, point.reopenedRecallAt10, point.rebuiltRecallAt10)
                    + " (scan fallbacks \(point.fallbacks.map(String.init).joined(separator: "/")); nodes visited "
                    + point.meanVisits.map { String(format: "%.0f", $0) }.joined(separator: "/") + "; walk ms "
                    + point.meanWalkMs.map { String(format: "%.3f", $0) }.joined(separator: "/") + ")")
        }
        if let int8RecallAt10 {
            var line = String(format: "int8 scan recall@10 against the exact scan: %.4f", int8RecallAt10)
            if let int8RecallAt10Filtered { line += String(format: " (filtered %.4f)", int8RecallAt10Filtered) }
            lines.append(line)
        }
        if let bandwidth = memoryBandwidth {
            lines.append(
                String(
                    format: "memory bandwidth: %.1f GB/s (%d threads reading %d MB)",
                    bandwidth.gbPerS, bandwidth.threads, bandwidth.bufferBytes >> 20))
            for (name, bytes, bound) in [
                ("semantic", bandwidth.exactScanBytes, bandwidth.exactScanLowerBoundMs),
                ("semantic_int8", bandwidth.int8ScanBytes, bandwidth.int8ScanLowerBoundMs),
            ] {
                guard let p50 = latency(name)?.p50Ms else { continue }
                lines.append(
                    "  \(name) "
                        + String(
                            format:
                                "reads %.1f MB at %.1f GB/s = %.2f ms lower bound; p50 %.2f ms is %.0f%% of that speed",
                            Double(bytes) / 1e6, bandwidth.gbPerS, bound, p50, 100 * bound / p50))
            }
        }
        if let numpy {
            var line =
                "numpy \(numpy.version) " + "brute force (matvec + argpartition, BLAS threads: \(numpy.threads)): "
                + String(format: "p50 %.2f ms, p95 %.2f ms, p99 %.2f ms", numpy.p50Ms, numpy.p95Ms, numpy.p99Ms)
            if let agreement = numpy.top10Agreement { line += String(format: "; top-10 agreement %.3f", agreement) }
            lines.append(line)
            let speedups = [("semantic", numpy.semanticSpeedup), ("semantic_int8", numpy.semanticInt8Speedup)]
                .compactMap { name, speedup in speedup.map { "\(name) " + String(format: "%.2f×", $0) } }
            if !speedups.isEmpty { lines.append("  numpy p50 over Mnemo p50: " + speedups.joined(separator: ", ")) }
        }
        return lines.joined(separator: "\n")
    }
}
