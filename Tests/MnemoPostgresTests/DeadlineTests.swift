import Mnemo
import Testing

@testable import MnemoPostgres

/// What counts against `--storage-timeout`: waiting for PostgreSQL, never the node's own work on
/// a copy — neither for the access doing it nor for those queued behind it on the namespace.
@Suite("Deadlines of PostgreSQL accesses")
struct DeadlineTests {
    static let limit = Duration.milliseconds(300)

    @Test func anAccessWaitingForCopyWorkOfAnotherKeepsItsTime() async throws {
        let mutex = AsyncMutex()
        let started = Locked(false)
        async let first = withDeadline(Self.limit, "first", sharing: mutex.copyWork) {
            try await mutex.withLock {
                started.withLock { $0 = true }
                try await Deadline.excluding { try await Task.sleep(for: .seconds(1)) }
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
        async let first = withDeadline(.seconds(10), "first", sharing: mutex.copyWork) {
            try await mutex.withLock {
                started.withLock { $0 = true }
                try await Task.sleep(for: .seconds(2)) // as if PostgreSQL were slow to answer
                return 1
            }
        }
        while !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        await #expect(throws: MnemoError.self) {
            try await withDeadline(Self.limit, "second", sharing: mutex.copyWork) { try await mutex.withLock { 2 } }
        }
        #expect(try await first == 1)
    }

    /// Generous margins: tests run in parallel on two cores, and a task may wait for a thread.
    @Test func rowsArrivingCountAsAnAnswer() async throws {
        let value = try await withDeadline(.seconds(1), "streaming") {
            for _ in 0..<12 {
                try await Task.sleep(for: .milliseconds(150))
                Deadline.progressed()
            }
            return 12
        }
        #expect(value == 12)
        await #expect(throws: MnemoError.self) {
            try await withDeadline(.seconds(1), "silent") {
                try await Task.sleep(for: .milliseconds(1_800))
                return 12
            }
        }
    }
}
