import Foundation
import Mnemo
import Testing

@testable import MnemoPostgres

/// What counts against `--storage-timeout`: waiting for PostgreSQL, never the node's own work on
/// a copy — neither for the access doing it nor for those queued behind it on the namespace.
@Suite("Deadlines of PostgreSQL accesses")
struct DeadlineTests {
    // Generous margins throughout: the tests run in parallel on two cores, and a task may wait
    // seconds for a thread.
    static let limit = Duration.seconds(6)

    /// Checked on the deadlines themselves, not by racing their watchers, so that a loaded
    /// machine cannot change the outcome.
    @Test func anAccessWaitingForCopyWorkOfAnotherKeepsItsTime() async throws {
        let limit = Duration.milliseconds(200)
        let mutex = AsyncMutex()
        let waiting = Deadline(limit, sharing: mutex.copyWork)
        let elsewhere = Deadline(limit)
        let start = ContinuousClock.now
        try await Deadline.$current.withValue(Deadline(limit, sharing: mutex.copyWork)) {
            try await Deadline.excluding { try await Task.sleep(for: .milliseconds(300)) }
        }
        let now = ContinuousClock.now
        #expect(waiting.expiry(at: now) >= start + limit + .milliseconds(300))
        #expect(elsewhere.expiry(at: now) < now)
    }

    /// A cancelled access still reports what its body did: a write it committed is not a
    /// cancellation.
    @Test func aCancelledAccessEndsAsItsBodyDoes() async throws {
        let committed = Task {
            try await withDeadline(.seconds(60), "a write") {
                // A commit on the wire: cancelling the task does not stop it.
                await withCheckedContinuation { done in
                    DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { done.resume() }
                }
                return 1
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        committed.cancel()
        #expect(try await committed.value == 1)
    }

    @Test func anAccessWaitingBehindOneThatWaitsForTheServerFails() async throws {
        let mutex = AsyncMutex()
        let (started, answered) = (Locked(false), Locked(false))
        // The first access may wait longer than the second: the second gives up on its own, while
        // the first still holds the namespace (it lets go only once the second has given up). Its
        // limit only ends the test if the second never gives up; a machine that stalls for a
        // minute or two must not reach it first.
        async let first = withDeadline(.seconds(600), "first", sharing: mutex.copyWork) {
            try await mutex.withLock {
                started.withLock { $0 = true }
                // As if PostgreSQL were slow to answer.
                while !answered.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(20)) }
                return 1
            }
        }
        while !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        await #expect(throws: MnemoError.self) {
            try await withDeadline(Self.limit, "second", sharing: mutex.copyWork) { try await mutex.withLock { 2 } }
        }
        answered.withLock { $0 = true }
        #expect(try await first == 1)
    }

    @Test func rowsArrivingCountAsAnAnswer() async throws {
        let limit = Duration.milliseconds(200)
        let answering = Deadline(limit)
        let silent = Deadline(limit)
        try await Task.sleep(for: .milliseconds(300))
        let now = ContinuousClock.now
        Deadline.$current.withValue(answering) { Deadline.progressed() }
        #expect(answering.expiry(at: now) >= now + limit)
        #expect(silent.expiry(at: now) < now)
    }
}
