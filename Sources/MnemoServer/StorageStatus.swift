import Foundation
import HTTPTypes
import Hummingbird
import Mnemo

/// Whether a node of a shared store (PostgreSQL) reaches it, as the store reports it: read by
/// `/healthz`, by the answers served from the node's copies during an outage (marked stale),
/// and by the event streams, which say when it changes.
package final class StorageStatus: Sendable {
    private struct Status {
        var state = StorageAvailability.available
        var onChange: [@Sendable () -> Void] = []
    }

    private let status = Locked(Status())

    package init() {}

    package var current: StorageAvailability { status.withLock { $0.state } }

    /// Sets the state; the event streams hear of a change.
    package func update(_ state: StorageAvailability) {
        let listeners = status.withLock { status -> [@Sendable () -> Void] in
            guard status.state != state else { return [] }
            status.state = state
            return status.onChange
        }
        for listener in listeners { listener() }
    }

    func onChange(_ listener: @escaping @Sendable () -> Void) {
        status.withLock { $0.onChange.append(listener) }
    }

    /// See ``StorageAvailability/staleSeconds(at:)``.
    func staleSeconds(at now: Date = Date()) -> Int? { current.staleSeconds(at: now) }
}

extension StorageAvailability {
    /// While unavailable, the whole seconds since the node last heard from the store: how far
    /// behind what it answers may be.
    func staleSeconds(at now: Date) -> Int? {
        guard case .unavailable(_, let lastContact, _) = self else { return nil }
        return max(0, Int(now.timeIntervalSince(lastContact).rounded(.up)))
    }
}

extension HTTPField.Name {
    /// On an answer read from the node's copy while the store is unreachable: the seconds since
    /// the node last reached the store (writes other nodes acknowledged since may be missing).
    static let mnemoStale = HTTPField.Name("Mnemo-Stale-Seconds")!
}

/// Marks the answers a node gives from its copies while the store is unreachable: a successful
/// answer then carries `Mnemo-Stale-Seconds` (writes, which need the store, are refused with
/// 503 before they reach here).
struct StaleAnswersMiddleware<Context: RequestContext>: RouterMiddleware {
    let status: StorageStatus

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var response = try await next(request, context)
        if (200..<300).contains(response.status.code), let seconds = status.staleSeconds() {
            response.headers[.mnemoStale] = String(seconds)
        }
        return response
    }
}

/// Wakes every open event stream for what is not a change of its feed: the store's status
/// changed, or the server is stopping. A ring moves the generation on; a stream waits for the
/// generation it last saw to pass.
final class StreamSignals: Sendable {
    private struct State {
        var generation = 0
        var stopping = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextID = 0
    }

    private let state = Locked(State())

    var generation: Int { state.withLock { $0.generation } }

    /// Whether the server is shutting down: streams end with a `reconnect` event.
    var isStopping: Bool { state.withLock { $0.stopping } }

    func ring() {
        let waiters = state.withLock { state in
            state.generation += 1
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    func stop() {
        state.withLock { $0.stopping = true }
        ring()
    }

    /// Returns once the generation passed `generation`, or the task is cancelled.
    func wait(after generation: Int) async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    // A cancellation before this point set the flag before its handler ran.
                    if state.generation != generation || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
