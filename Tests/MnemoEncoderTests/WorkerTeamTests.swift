import Foundation
import Testing

@testable import MnemoEncoder

/// The helper threads of a forward pass (`WorkerTeam`, over `mnemo_team_*` in MnemoKernels):
/// every iteration runs exactly once, whether the helpers are polling or asleep, and one caller
/// holds the team at a time.
@Suite("Worker team")
struct WorkerTeamTests {
    /// Counts, per iteration, how often it ran (each iteration writes only its own slot).
    final class Tally: @unchecked Sendable {
        let counts: UnsafeMutablePointer<Int>
        let size: Int
        init(size: Int) {
            self.size = size
            counts = .allocate(capacity: size)
            counts.initialize(repeating: 0, count: size)
        }
        deinit { counts.deallocate() }
        var values: [Int] { Array(UnsafeBufferPointer(start: counts, count: size)) }
    }

    @Test("every iteration runs once, loop after loop, for 1 to 9 iterations on 2 and 3 threads")
    func iterationsRunOnce() throws {
        for threads in 2...3 {
            let team = try #require(WorkerTeam(threadCount: threads))
            team.withClaim { claimed in
                #expect(claimed === team)
                for round in 0..<2_000 {
                    let iterations = 1 + round % 9
                    let tally = Tally(size: iterations)
                    team.run(iterations: iterations) { iteration in tally.counts[iteration] += 1 }
                    #expect(
                        tally.values == [Int](repeating: 1, count: iterations), "\(threads) threads, round \(round)")
                }
            }
        }
    }

    @Test("the helper takes part whether it was polling or asleep when the loop started")
    func pollingOrAsleep() throws {
        let team = try #require(WorkerTeam(threadCount: 2))
        team.withClaim { _ in
            for round in 0..<4 {
                // Odd rounds follow the last loop at once (the helper is polling); even rounds
                // wait past its 0.1 ms of polling (it is asleep).
                if round % 2 == 0 { Thread.sleep(forTimeInterval: 0.005) }
                let tally = Tally(size: 2)
                let threads = ThreadNames()
                team.run(iterations: 2) { iteration in
                    threads.record(iteration)
                    // Long enough that the woken helper takes the second iteration.
                    Thread.sleep(forTimeInterval: 0.1)
                    tally.counts[iteration] += 1
                }
                #expect(tally.values == [1, 1], "round \(round)")
                #expect(threads.distinct == 2, "round \(round): both iterations ran on one thread")
            }
        }
    }

    @Test("one caller holds the team at a time; a second one gets nil until it is let go")
    func oneCallerAtATime() throws {
        let team = try #require(WorkerTeam(threadCount: 2))
        team.withClaim { outer in
            #expect(outer === team)
            team.withClaim { inner in #expect(inner == nil) }
        }
        team.withClaim { again in #expect(again === team) }
    }

    @Test("there is no team for one thread")
    func noTeamForOneThread() {
        #expect(WorkerTeam(threadCount: 1) == nil)
    }

    @Test("teams start and stop their helpers")
    func startAndStop() throws {
        for _ in 0..<50 {
            let team = try #require(WorkerTeam(threadCount: 3))
            team.withClaim { _ in team.run(iterations: 3) { _ in } }
        }
    }

    /// The threads that ran each iteration.
    final class ThreadNames: @unchecked Sendable {
        private let lock = NSLock()
        private var threads: [Int: ObjectIdentifier] = [:]
        func record(_ iteration: Int) {
            let thread = ObjectIdentifier(Thread.current)
            lock.lock()
            threads[iteration] = thread
            lock.unlock()
        }
        var distinct: Int { Set(threads.values).count }
    }
}
