import Hummingbird
import Mnemo
import NIOCore

/// Closes the connections of event streams whose client reads nothing.
///
/// A stream is pulled (its next page is read once the last is written), so a client that stops
/// reading costs no memory past its socket's buffers and holds no writer back; but its stream
/// would wait in a write for as long as TCP keeps the connection. Once a write has waited longer
/// than ``limit``, the connection is closed, which fails the write and ends the stream. A
/// `reset` event cannot reach a client through its full socket: the client resumes from its
/// `Last-Event-ID` when it comes back.
///
/// One sweep, every quarter of the limit while any stream is open, serves every stream: a write
/// costs two updates of a table, not a timer.
final class StalledStreams: Sendable {
    let limit: Duration

    /// A watched stream: its channel, and since when its present write waits.
    fileprivate final class Stream: Sendable {
        let channel: any Channel
        let writeStarted = Locked<ContinuousClock.Instant?>(nil)

        init(channel: any Channel) {
            self.channel = channel
        }
    }

    private struct State {
        var streams: [Int: Stream] = [:]
        var nextID = 0
        var sweeping = false
    }

    private let state = Locked(State())

    init(limit: Duration) {
        self.limit = limit
    }

    /// Starts watching the stream on `channel`; ``Watch/end()`` stops.
    func watch(_ channel: any Channel) -> Watch {
        let stream = Stream(channel: channel)
        let (id, startsSweeping) = state.withLock { state -> (Int, Bool) in
            let id = state.nextID
            state.nextID += 1
            state.streams[id] = stream
            defer { state.sweeping = true }
            return (id, !state.sweeping)
        }
        if startsSweeping {
            Task { await self.sweep() }
        }
        return Watch(streams: self, stream: stream, id: id)
    }

    /// One watched stream.
    struct Watch: Sendable {
        fileprivate let streams: StalledStreams
        fileprivate let stream: Stream
        fileprivate let id: Int

        /// Writes `bytes` to the stream's client, under watch. A write marks its own stream
        /// only: a thousand streams woken together do not queue on the table's lock.
        func write(_ bytes: ByteBuffer, to writer: inout any ResponseBodyWriter) async throws {
            stream.writeStarted.withLock { $0 = .now }
            defer { stream.writeStarted.withLock { $0 = nil } }
            try await writer.write(bytes)
        }

        func end() {
            streams.state.withLock { _ = $0.streams.removeValue(forKey: id) }
        }
    }

    private func sweep() async {
        while true {
            try? await Task.sleep(for: limit / 4)
            let now = ContinuousClock.now
            let (stalled, stops) = state.withLock { state -> ([any Channel], Bool) in
                let stalled = state.streams.values.filter { stream in
                    stream.writeStarted.withLock { $0 }.map { now - $0 > limit } ?? false
                }
                if state.streams.isEmpty { state.sweeping = false }
                return (stalled.map(\.channel), !state.sweeping)
            }
            for channel in stalled { channel.close(promise: nil) }
            if stops { return }
        }
    }
}
