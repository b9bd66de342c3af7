internal import MnemoKernels

/// Helper threads that stay awake between the parallel loops of a forward pass
/// (`mnemo_team_run` in MnemoKernels).
///
/// One text's pass runs about thirty loops (four products, attention, per layer), each a few tens
/// of microseconds per thread; `DispatchQueue.concurrentPerform` wakes a sleeping thread for each,
/// which in a virtual machine costs about as much as the loop, so a second thread barely shortened
/// one text. The team's helpers poll for the next loop for 0.1 ms before they sleep.
///
/// A team runs one caller's loops at a time: ``withClaim(_:)`` hands it to one caller, and
/// callers that find it taken run on Dispatch instead.
final class WorkerTeam: @unchecked Sendable {
    // The C team is only reached through mnemo_team_claim/run/release, which order every access.
    private let team: OpaquePointer

    /// A team for `threadCount` threads in all (the caller and `threadCount − 1` helpers); nil
    /// below 2 threads or when the threads cannot be started.
    init?(threadCount: Int) {
        guard threadCount > 1, let team = mnemo_team_create(threadCount - 1) else { return nil }
        self.team = team
    }

    deinit { mnemo_team_destroy(team) }

    /// Runs `body` with the team held by this caller, or with nil when another caller holds it.
    func withClaim<Result>(_ body: (WorkerTeam?) throws -> Result) rethrows -> Result {
        guard mnemo_team_claim(team) != 0 else { return try body(nil) }
        defer { mnemo_team_release(team) }
        return try body(self)
    }

    /// Calls `body(i)` for every `i` in `0..<iterations` on the caller's thread and the helpers,
    /// and returns when all have returned. Only inside ``withClaim(_:)``'s body, on this team.
    func run(iterations: Int, _ body: @Sendable (Int) -> Void) {
        withoutActuallyEscaping(body) { body in
            var loop = body
            withUnsafeMutablePointer(to: &loop) { loop in
                mnemo_team_run(
                    team, iterations,
                    { context, iteration in
                        context!.assumingMemoryBound(to: (@Sendable (Int) -> Void).self).pointee(iteration)
                    }, loop)
            }
        }
    }
}
