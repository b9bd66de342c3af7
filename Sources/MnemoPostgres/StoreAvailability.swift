import Foundation
import Mnemo
import PostgresNIO

extension PostgresMemory {
    /// Whether this node reaches PostgreSQL now.
    public var availability: StorageAvailability { availabilityState.current }

    /// Calls `observer` at each change of ``availability``, from the task that saw the change.
    package func observeAvailability(_ observer: @escaping @Sendable (StorageAvailability) -> Void) {
        availabilityState.observe(observer)
    }

    /// The error a request gets at once while PostgreSQL is unreachable.
    func unavailableError() -> MnemoError? {
        guard case .unavailable(let since, _, let reason) = availability else { return nil }
        let seconds = String(format: "%.1f", Date().timeIntervalSince(since))
        return .storageUnavailable(
            reason:
                "PostgreSQL at \(location.host):\(location.port) has been unreachable for \(seconds) s (\(reason)); "
                + "a background probe retries every \(Self.probeInterval)")
    }

    /// How often a node without PostgreSQL tries to reach it again.
    static let probeInterval: Duration = .milliseconds(250)

    /// An access failed with `reason` (a lost connection, a deadline passed): one direct
    /// connection to PostgreSQL, outside the pool, tells a stopped server (refused at once)
    /// from a slow one. When it fails too, the node is marked unavailable — every later access
    /// fails at once instead of waiting out its deadline — the pool is shut down, so that the
    /// accesses waiting for a connection fail now rather than at their deadlines, and one
    /// background probe tries again every ``probeInterval``.
    func accessFailed(_ reason: String) async {
        guard availabilityState.startChecking() else { return }
        if let failure = await probe() {
            guard availabilityState.becameUnavailable("\(reason); \(failure)") else { return }
            pool.withLock { $0.running }.cancel()
            // The task holds the store weakly between probes, so a store dropped without
            // `close()` stops probing instead of being kept alive by its own probe.
            let probing = Task { [weak self] () -> Void in
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.probeInterval)
                    guard let self else { return }
                    if await self.recoverIfReachable() { return }
                }
            }
            tasks.withLock { $0.append(probing) }
        } else {
            availabilityState.stopChecking()
        }
    }

    /// Probes once; when PostgreSQL answers, starts a fresh pool (the old one backed off its
    /// connection attempts, up to a minute between them), marks the node available and says so.
    private func recoverIfReachable() async -> Bool {
        guard await probe() == nil else { return false }
        let started = Self.startPool(location, options: options, logger: logger)
        pool.withLock { $0 = started }
        availabilityState.becameAvailable()
        return true
    }

    /// One connection made, asked `SELECT 1` and closed, within a second: `nil` when it worked,
    /// else why not.
    func probe() async -> String? {
        let location = location
        let logger = logger
        do {
            try await withDeadline(.seconds(1), "a probe of \(location.host):\(location.port)") {
                let connection = try await PostgresConnection.connect(
                    configuration: try location.connectionConfiguration(connectTimeout: .seconds(1)), id: 1,
                    logger: logger)
                do {
                    try await connection.query("SELECT 1", logger: logger)
                    try await connection.close()
                } catch {
                    try? await connection.close()
                    throw error
                }
            }
            availabilityState.reached()
            return nil
        } catch {
            let mapped = StoreErrors.mapped(error, location: location)
            if case MnemoError.storageUnavailable(let reason) = mapped { return reason }
            return "\(mapped)"
        }
    }
}

/// The node's view of PostgreSQL: available or not, and when it last heard from it.
final class AvailabilityState: Sendable {
    private struct State {
        var current = StorageAvailability.available
        var lastContact = Date()
        /// A failure is being checked with a probe: the other failures meanwhile wait for none.
        var checking = false
        var observers: [@Sendable (StorageAvailability) -> Void] = []
    }

    private let state = Locked(State())

    var current: StorageAvailability { state.withLock { $0.current } }

    /// PostgreSQL answered.
    func reached() {
        let now = Date()
        state.withLock { $0.lastContact = now }
    }

    func observe(_ observer: @escaping @Sendable (StorageAvailability) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Whether the caller should check a failure: the node is available and no other check runs.
    func startChecking() -> Bool {
        state.withLock { state in
            guard state.current == .available, !state.checking else { return false }
            state.checking = true
            return true
        }
    }

    func stopChecking() {
        state.withLock { $0.checking = false }
    }

    /// Marks the node unavailable; whether it was available until now.
    func becameUnavailable(_ reason: String) -> Bool {
        let (changed, observers) = state.withLock { state in
            state.checking = false
            guard state.current == .available else { return (false, state.observers) }
            state.current = .unavailable(since: Date(), lastContact: state.lastContact, reason: reason)
            return (true, state.observers)
        }
        if changed { notify(observers) }
        return changed
    }

    func becameAvailable() {
        let observers = state.withLock { state in
            state.current = .available
            state.lastContact = Date()
            return state.observers
        }
        notify(observers)
    }

    private func notify(_ observers: [@Sendable (StorageAvailability) -> Void]) {
        let current = current
        for observer in observers { observer(current) }
    }
}
