import Dispatch
import Foundation

/// Ctrl-C (SIGINT) and SIGTERM as a cancellation of the command's work instead of the end of the
/// process, for commands that must undo something on the way out: `mnemo eval`'s scratch
/// database, or its namespace in PostgreSQL. A second signal ends the process as usual.
enum Interruption {
    /// Runs `work`, cancelled by the first SIGINT or SIGTERM; throws ``Interrupted`` when it was.
    static func cancelling<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await work() }
        let signals = [SIGINT, SIGTERM]
        let sources = signals.map { number in
            // The default action would end the process before the task can clean up.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                task.cancel()
                signal(number, SIG_DFL)
            }
            source.resume()
            return source
        }
        defer {
            for (source, number) in zip(sources, signals) {
                source.cancel()
                signal(number, SIG_DFL)
            }
        }
        do {
            return try await task.value
        } catch  where task.isCancelled {
            throw Interrupted()
        }
    }

    /// The work was stopped by a signal, and what it had to undo is undone.
    struct Interrupted: Error, CustomStringConvertible {
        /// A shell's code for a command ended by Ctrl-C: 128 + SIGINT.
        static let exitCode: Int32 = 130

        var description: String { "interrupted" }
    }
}
