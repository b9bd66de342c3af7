import Foundation

/// A small, fast, seeded random number generator (SplitMix64, Steele, Lea and Flood 2014).
///
/// Synthetic corpora must be the same on every run and every platform, so they never draw from
/// `SystemRandomNumberGenerator`; and Swift's `Int.random(in:using:)` and friends may change
/// their algorithms between releases, so the generator also offers its own `uniform`, `below`
/// and `gaussian` draws.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose whole output is determined by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in [0, 1) with 53 random bits.
    public mutating func uniform() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform integer in `0..<bound`. The tiny modulo bias (below 2⁻³²) does not matter for
    /// synthetic data, and the result is stable across Swift releases.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "the bound must be positive")
        return Int(next() % UInt64(bound))
    }

    /// A standard normal value (Box–Muller).
    public mutating func gaussian() -> Double {
        let u1 = max(uniform(), 0x1.0p-60)
        let u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// A new generator for a sub-task, so that adding draws to one part of a corpus does not
    /// change the others.
    public mutating func fork() -> SplitMix64 {
        SplitMix64(seed: next())
    }
}
