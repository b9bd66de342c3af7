import Foundation

/// Ranks drawn with probability proportional to `1 / rank^exponent`: the shape of word
/// frequencies in natural text, where a few words are everywhere and most are rare.
public struct ZipfDistribution: Sendable {
    /// Cumulative probabilities; `cumulative[i]` is P(rank ≤ i + 1).
    private let cumulative: [Double]

    /// A distribution over ranks `0..<count` (rank 0 is the most frequent).
    /// - Parameter exponent: about 1 for English word frequencies.
    public init(count: Int, exponent: Double = 1.07) {
        precondition(count > 0, "a Zipf distribution needs at least one rank")
        var running = 0.0
        var cumulative = [Double]()
        cumulative.reserveCapacity(count)
        for rank in 1...count {
            running += 1 / pow(Double(rank), exponent)
            cumulative.append(running)
        }
        self.cumulative = cumulative.map { $0 / running }
    }

    /// The number of ranks.
    public var count: Int { cumulative.count }

    /// The probability of drawing `rank`.
    public func probability(of rank: Int) -> Double {
        rank == 0 ? cumulative[0] : cumulative[rank] - cumulative[rank - 1]
    }

    /// Draws a rank (binary search on the cumulative distribution).
    public func sample(using generator: inout SplitMix64) -> Int {
        let target = generator.uniform()
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] > target { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
