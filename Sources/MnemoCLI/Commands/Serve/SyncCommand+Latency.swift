import Foundation
import Mnemo

extension SyncCommand {
    /// `mnemo sync --measure-latency N --peer FILE`: N times, changes one fact of the `--db` file
    /// (its importance), syncs it, and syncs the peer file (another device of the namespace):
    /// the time from the push to the peer holding the change, in this process, over the
    /// transport a device uses. Prints the median and the 90th percentile.
    func measureLatency(rounds: Int, peerPath: String, transport: URLSessionSyncTransport, kb: KnowledgeBase)
        async throws
    {
        let peer = try KnowledgeBase(
            url: URL(fileURLWithPath: peerPath), configuration: .init(namespace: kb.namespace, embedder: kb.embedder))
        try await kb.sync(with: transport)
        try await peer.sync(with: transport)
        guard let fact = try await kb.facts(limit: 1).first else {
            throw CLIError("--measure-latency changes a fact of the file: it holds none")
        }
        let clock = ContinuousClock()
        var times: [Duration] = []
        var current = fact.importance
        for round in 0..<rounds {
            // Each round changes the importance from what it is, so that each has a change to push.
            let importance: Importance = current == .high ? .low : .high
            current = importance
            try await kb.updateFact(id: fact.id, FactUpdate(importance: importance))
            let start = clock.now
            let pushed = try await kb.sync(with: transport)
            let pulled = try await peer.sync(with: transport)
            times.append(clock.now - start)
            guard pushed.pushed == 1, pulled.pulled >= 1,
                try await peer.facts(limit: 10_000).first(where: { $0.uid == fact.uid })?.importance == importance
            else {
                throw CLIError("round \(round + 1): the peer does not hold the change (\(pushed), \(pulled))")
            }
        }
        times.sort()
        func milliseconds(_ duration: Duration) -> String {
            String(
                format: "%.1f",
                Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1e3)
        }
        print(
            "one change pushed and pulled by another device, \(rounds) rounds: p50 \(milliseconds(times[rounds / 2])) ms, "
                + "p90 \(milliseconds(times[rounds * 9 / 10])) ms")
    }
}
