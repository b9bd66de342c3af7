/// Percentiles of a set of latency samples.
///
/// Percentiles use the nearest-rank method: the p-th percentile of n sorted samples is the
/// sample at position ⌈p/100 · n⌉ (1-based), so it is always one of the measured values.
public struct LatencyStats: Hashable, Sendable {
    public var count: Int
    public var p50: Duration
    public var p95: Duration
    public var p99: Duration
    public var mean: Duration
    public var minimum: Duration
    public var maximum: Duration

    /// Statistics of `samples`; all zero when there are none.
    public init(samples: [Duration]) {
        let sorted = samples.sorted()
        count = sorted.count
        p50 = Self.percentile(50, ofSorted: sorted)
        p95 = Self.percentile(95, ofSorted: sorted)
        p99 = Self.percentile(99, ofSorted: sorted)
        minimum = sorted.first ?? .zero
        maximum = sorted.last ?? .zero
        mean = sorted.isEmpty ? .zero : sorted.reduce(.zero, +) / sorted.count
    }

    /// The nearest-rank `percent`-th percentile of samples sorted in increasing order.
    public static func percentile(_ percent: Double, ofSorted sorted: [Duration]) -> Duration {
        guard !sorted.isEmpty else { return .zero }
        let rank = Int((percent / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// Times `body` once per element of `inputs` with `ContinuousClock`.
    public static func measure<Input>(_ inputs: [Input], _ body: (Input) async throws -> Void) async rethrows
        -> LatencyStats
    {
        let clock = ContinuousClock()
        var samples: [Duration] = []
        samples.reserveCapacity(inputs.count)
        for input in inputs {
            let start = clock.now
            try await body(input)
            samples.append(clock.now - start)
        }
        return LatencyStats(samples: samples)
    }
}

extension Duration {
    /// The duration in (fractional) milliseconds.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }

    /// The duration in (fractional) seconds.
    public var seconds: Double { milliseconds / 1_000 }
}
