import Foundation

/// Runs `first` and `second` at once, on two of `DispatchQueue.concurrentPerform`'s threads,
/// and returns both results once both have returned.
func onBothCores<First, Second>(_ first: () -> First, _ second: () -> Second) -> (First, Second) {
    withoutActuallyEscaping(first) { first in
        withoutActuallyEscaping(second) { second in
            let lanes = Lanes(first: first, second: second)
            DispatchQueue.concurrentPerform(iterations: 2) { lane in lanes.run(lane) }
            return (lanes.firstResult!, lanes.secondResult!)
        }
    }
}

/// The closures of ``onBothCores(_:_:)`` and their results, each lane writing only its own.
private final class Lanes<First, Second>: @unchecked Sendable {
    let first: () -> First
    let second: () -> Second
    var firstResult: First?
    var secondResult: Second?

    init(first: @escaping () -> First, second: @escaping () -> Second) {
        self.first = first
        self.second = second
    }

    func run(_ lane: Int) {
        if lane == 0 { firstResult = first() } else { secondResult = second() }
    }
}
