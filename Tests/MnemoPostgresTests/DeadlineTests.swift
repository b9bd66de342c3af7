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

    @Test func anAccessWaitingForCopyWorkOfAnotherKeepsItsTime() async throws {
        let mutex = AsyncMutex()
        let started = Locked(false)
        async let first = withDeadline(Self.limit, "first", sharing: mutex.copyWork) {
            try await mutex.withLock {
                started.withLock { $0 = true }
                try await Deadline.excluding { try await Task.sleep(for: .seconds(10)) }
                return 1
            }
        }
        while !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        let second = try await withDeadline(Self.limit, "second", sharing: mutex.copyWork) {
            try await mutex.withLock { 2 }
        }
        #expect(try await first + second == 3)
    }

    @Test func anAccessWaitingBehindOneThatWaitsForTheServerFails() async throws {
        let mutex = AsyncMutex()
        let started = Locked(false)
        // The first access may wait longer than the second: the second still gives up on its own.
        async let first = withDeadline(.seconds(30), "first", sharing: mutex.copyWork) {
            try await mutex.withLock {
                started.withLock { $0 = true }
                try await Task.sleep(for: .seconds(10)) // as if PostgreSQL were slow to answer
                return 1
            }
        }
        while !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        await #expect(throws: MnemoError.self) {
            try await withDeadline(Self.limit, "second", sharing: mutex.copyWork) { try await mutex.withLock { 2 } }
        }
        #expect(try await first == 1)
    }

    @Test func rowsArrivingCountAsAnAnswer() async throws {
        let value = try await withDeadline(Self.limit, "streaming") {
            for _ in 0..<20 {
                try await Task.sleep(for: .milliseconds(500))
                Deadline.progressed()
            }
            return 20
        }
        #expect(value == 20)
        await #expect(throws: MnemoError.self) {
            try await withDeadline(Self.limit, "silent") {
                try await Task.sleep(for: .seconds(10))
                return 20
            }
        }
    }
}
