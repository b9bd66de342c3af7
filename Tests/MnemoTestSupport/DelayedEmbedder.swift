import Foundation
import Mnemo

/// A ``SeededEmbedder`` that takes `delay` per call, so a test can cancel a task while it works.
///
/// `checksCancellation` chooses how it waits: with `Task.sleep`, which throws `CancellationError`
/// as soon as the task is cancelled (a well-behaved embedder), or on a timer that nothing
/// interrupts, as an embedder that never looks at its task does. Neither holds a thread of the
/// cooperative pool, so tests running in parallel do not slow each other down.
package struct DelayedEmbedder: Embedder {
    package var base = SeededEmbedder(name: "test/delayed", dimension: 16)
    package var delay: Duration
    package var checksCancellation: Bool
    /// Calls started so far.
    package let calls = Locked(0)
    package var identity: EmbeddingModelIdentity { base.identity }

    package init(delay: Duration, checksCancellation: Bool) {
        self.delay = delay
        self.checksCancellation = checksCancellation
    }

    package func embed(_ texts: [String]) async throws -> [[Float]] {
        calls.withLock { $0 += 1 }
        if checksCancellation {
            try await Task.sleep(for: delay)
        } else {
            let components = delay.components
            let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { done.resume() }
            }
        }
        return try await base.embed(texts)
    }
}
