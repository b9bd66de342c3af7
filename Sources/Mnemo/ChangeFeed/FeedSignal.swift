import Foundation
import GRDB

/// Wakes the followers of a database's change feed when events are committed: at once for the
/// commits of this connection pool (``FeedCommitObserver``), and within ``pollInterval`` for
/// those of another pool or process on the same file, which no observer of this pool sees.
///
/// One check serves every follower: it reads which namespaces have events past the last one it
/// saw (one index range scan) and wakes only their followers, so a thousand followers cost one
/// read per commit, not a thousand. Nothing runs while nobody follows.
///
/// The followers it wakes stand mostly at the same place and ask for the same page at once; the
/// first starts reading it and the others wait for that read (``sharedPage(_:reading:)``), so
/// a commit costs one read of its events however many follow. A shared read is joined until the
/// next change seen: a commit of this pool, at once (before its write returns, so no follower
/// that asks after an erasure returned is handed its content), or another pool's, when a check
/// finds it.
final class FeedSignal: Sendable {
    /// How soon another process's commit reaches the followers.
    static let pollInterval: Duration = .milliseconds(200)

    /// The least time between two wake-ups of the followers, for `count` of them: a wake-up
    /// costs each follower a write to its client (some 40 µs on a server), so a thousand
    /// followers woken at every commit would take the writers' CPU. Commits that land within
    /// the spacing reach the followers together, which keeps the fan-out under half a core up
    /// to 1,000 followers at any rate of writes, at the price of up to 100 ms more delay with
    /// 1,000 followers (none to speak of with a few: 100 µs per follower).
    static func wakeSpacing(followers count: Int) -> Duration {
        min(.microseconds(100) * count, .milliseconds(100))
    }

    private struct Follower {
        var namespace: String
        var wake: AsyncStream<Void>.Continuation
    }

    /// A page asked for by its place: its namespace, the sequence it follows and its length.
    struct PageKey: Hashable, Sendable {
        var namespace: String
        var after: Int64
        var limit: Int
    }

    private struct State {
        var followers: [Int: Follower] = [:]
        var nextID = 0
        var checking = false
        /// The reads of pages begun since the last change seen.
        var pages: [PageKey: Task<ChangePage, any Error>] = [:]

        mutating func changed() {
            pages.removeAll(keepingCapacity: true)
        }
    }

    /// The most pages shared at once: followers catching up from many places read their own.
    private static let sharedPageLimit = 64
    /// The last number given to a shared page, in this process.
    private static let pageNumbers = Locked(0)

    private let reader: any DatabaseReader
    private let state = Locked(State())
    private let doorbell = Doorbell()

    init(reader: any DatabaseReader) {
        self.reader = reader
    }

    /// Starts waking a follower of `namespace`: the subscription's wake-ups come after each
    /// commit that adds events to it (coalesced: one pending wake-up at most), and once at once.
    func follow(namespace: String) async throws -> FeedSubscription {
        let baseline = try await reader.read { db in try FeedTable.latestSequence(db) }
        let (wakeups, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        wake.yield()
        let (id, startsChecking) = state.withLock { state -> (Int, Bool) in
            let id = state.nextID
            state.nextID += 1
            state.followers[id] = Follower(namespace: namespace, wake: wake)
            defer { state.checking = true }
            return (id, !state.checking)
        }
        if startsChecking {
            Task { await self.check(from: baseline) }
        }
        return FeedSubscription(wakeups: wakeups) { [weak self] in self?.stopFollowing(id) }
    }

    /// Called after a commit of this pool that added events.
    func committed() {
        state.withLock { $0.changed() }
        doorbell.ring()
    }

    /// The page at `key`: from the read another follower began since the last change, or else
    /// from a read of `read`, which the followers after it join.
    func sharedPage(_ key: PageKey, reading read: @escaping @Sendable () async throws -> ChangePage)
        async throws -> ChangePage
    {
        let reading = state.withLock { state -> Task<ChangePage, any Error> in
            if let reading = state.pages[key] { return reading }
            let reading = Task {
                var page = try await read()
                page.sharedNumber = Self.pageNumbers.withLock { number in
                    number += 1
                    return number
                }
                return page
            }
            if state.pages.count < Self.sharedPageLimit { state.pages[key] = reading }
            return reading
        }
        return try await reading.value
    }

    private func stopFollowing(_ id: Int) {
        let wake = state.withLock { $0.followers.removeValue(forKey: id)?.wake }
        wake?.finish()
        doorbell.ring()
    }

    /// Checks after each commit or poll interval, until nobody follows.
    private func check(from baseline: Int64) async {
        var last = baseline
        var spacing = Duration.zero
        while true {
            if spacing > .zero { try? await Task.sleep(for: spacing) }
            await doorbell.wait(upTo: Self.pollInterval)
            let seen = last
            let changed = try? await reader.read { db in try FeedTable.namespacesChanged(db, after: seen) }
            let (stops, woken) = state.withLock { state -> (Bool, Int) in
                var woken = 0
                if let (namespaces, latest) = changed {
                    last = latest
                    if !namespaces.isEmpty { state.changed() }
                    for follower in state.followers.values where namespaces.contains(follower.namespace) {
                        follower.wake.yield()
                        woken += 1
                    }
                }
                if state.followers.isEmpty { state.checking = false }
                return (!state.checking, woken)
            }
            if stops { return }
            spacing = Self.wakeSpacing(followers: woken)
        }
    }
}

/// A follower's wake-ups; following stops when it is released.
final class FeedSubscription: @unchecked Sendable {
    // One task at a time iterates (the stream's consumer): the iterator is not shared.
    private var iterator: AsyncStream<Void>.Iterator
    private let stop: @Sendable () -> Void

    fileprivate init(wakeups: AsyncStream<Void>, stop: @escaping @Sendable () -> Void) {
        self.iterator = wakeups.makeAsyncIterator()
        self.stop = stop
    }

    deinit { stop() }

    /// Waits for the next wake-up; `false` when the task was cancelled.
    func next() async -> Bool {
        await iterator.next() != nil && !Task.isCancelled
    }
}

/// Rings wake one waiter; a ring with nobody waiting is kept for the next wait.
private final class Doorbell: Sendable {
    private let state = Locked<(rung: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func ring() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.rung = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    func wait(upTo timeout: Duration) async {
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { self?.ring() }
        }
        await withCheckedContinuation { continuation in
            let ringsNow = state.withLock { state -> Bool in
                if state.rung {
                    state.rung = false
                    return true
                }
                state.waiter = continuation
                return false
            }
            if ringsNow { continuation.resume() }
        }
        timer.cancel()
    }
}

/// Rings the feed's doorbell after each commit of the pool that added events.
final class FeedCommitObserver: TransactionObserver, @unchecked Sendable {
    // Weak: the signal reads through the pool that holds this observer, and a strong reference
    // would keep the pool open for ever (its last connection's close folds the WAL in).
    private weak var signal: FeedSignal?
    // Touched on the writer's queue only, as GRDB calls an observer.
    private var added = false

    init(signal: FeedSignal) {
        self.signal = signal
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        eventKind.tableName == "feed_event"
    }

    func databaseDidChange(with event: DatabaseEvent) {
        added = true
        // One event is enough to know: a bulk write's thousands of rows call back no more.
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseDidCommit(_ db: Database) {
        defer { added = false }
        if added { signal?.committed() }
    }

    func databaseDidRollback(_ db: Database) {
        added = false
    }
}
