import Hummingbird
import Mnemo

/// A response streamed to a client that may stop reading: when one write has waited longer than
/// the limit (the client's socket and the server's buffers are full), the stream is ended and the
/// connection closed. Otherwise such a stream would hold its task and its buffers for as long as
/// TCP keeps the connection, while the writes of every other client go on.
///
/// The stream runs in a task of its own beside a watchdog: a write waits on the channel, which
/// only cancellation can end (Hummingbird's body writer has no deadline).
enum StallLimitedStream {
    /// The error that ends a stalled stream; the server closes the connection.
    struct Stalled: Error, CustomStringConvertible {
        var limit: Duration
        var description: String { "the client read nothing for \(limit): its event stream is closed" }
    }

    /// Runs `stream`, which writes through the function it is given, until it returns; throws
    /// ``Stalled`` when one of its writes waited longer than `limit`.
    static func run(
        writer: any ResponseBodyWriter, limit: Duration,
        _ stream: @escaping @Sendable (_ write: @Sendable (String) async throws -> Void) async throws -> Void
    ) async throws {
        let writer = UncheckedWriter(writer: writer)
        let writeStarted = Locked<ContinuousClock.Instant?>(nil)
        let write: @Sendable (String) async throws -> Void = { text in
            writeStarted.withLock { $0 = .now }
            var body = writer.writer
            try await body.write(ByteBuffer(string: text))
            writeStarted.withLock { $0 = nil }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await stream(write) }
            group.addTask {
                while true {
                    try await Task.sleep(for: limit / 4)
                    if let started = writeStarted.withLock({ $0 }), .now - started > limit {
                        throw Stalled(limit: limit)
                    }
                }
            }
            // The first to end decides: the stream's return, or the watchdog's error (which
            // cancels the stream's waiting write as the group unwinds).
            try await group.next()
            group.cancelAll()
        }
    }

    /// The body writer handed to the stream's task: Hummingbird's writers are handles to the
    /// connection's outbound writer (or a locked buffer in tests), which one task at a time uses.
    private struct UncheckedWriter: @unchecked Sendable {
        var writer: any ResponseBodyWriter
    }
}
