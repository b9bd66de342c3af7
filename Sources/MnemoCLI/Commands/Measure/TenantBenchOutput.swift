import Foundation
import MnemoEvaluation

/// `mnemo bench --tenants N`: runs ``TenantBenchmark`` and prints its latencies.
enum TenantBenchOutput {
    struct Shape: Encodable {
        struct Stats: Encodable {
            var p50Ms: Double
            var p95Ms: Double
            var p99Ms: Double

            init(_ stats: LatencyStats) {
                p50Ms = stats.p50.milliseconds
                p95Ms = stats.p95.milliseconds
                p99Ms = stats.p99.milliseconds
            }
        }

        var tenants: Int
        var factsPerTenant: Int
        var queries: Int
        var lone: Stats
        var shared: Stats
        var p50Ratio: Double
        var loadSeconds: Double
    }

    static func run(tenants: Int, facts: Int, queries: Int, seed: UInt64, json: Bool) async throws {
        let status = StatusLine.forTerminal()
        status?.show("loading \(tenants.formatted()) users × \(facts.formatted()) facts…", force: true)
        let report = try await TenantBenchmark.run(
            .init(tenants: tenants, factsPerTenant: facts, queries: queries, seed: seed)
        ) { status?.show($0, force: true) }
        status?.finish()
        let shape = Shape(
            tenants: tenants, factsPerTenant: facts, queries: report.lone.count, lone: .init(report.lone),
            shared: .init(report.shared), p50Ratio: report.p50Ratio, loadSeconds: report.loadTime.milliseconds / 1_000)
        if json {
            try Output.json(shape)
            return
        }
        func line(_ name: String, _ stats: Shape.Stats) -> [String] {
            [
                name, String(format: "%.3f", stats.p50Ms), String(format: "%.3f", stats.p95Ms),
                String(format: "%.3f", stats.p99Ms),
            ]
        }
        print(
            "Semantic search of one user, \(facts.formatted()) facts each, \(shape.queries) queries interleaved (ms):")
        print(
            Output.table(
                ["database", "p50", "p95", "p99"],
                [
                    line("lone user", shape.lone), line("\(tenants.formatted()) users", shape.shared),
                ]))
        print(String(format: "p50 ratio %.2f×; loading took %.1f s", shape.p50Ratio, shape.loadSeconds))
    }
}
