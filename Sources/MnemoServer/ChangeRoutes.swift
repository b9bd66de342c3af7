import Foundation
import HTTPTypes
import Hummingbird
import Mnemo
import ServiceLifecycle

/// The change feed over HTTP: MindChat's event stream (`GET /api/events`, Server-Sent Events)
/// and Lucid's long poll (`GET /v1/users/{user_id}/changes`).
struct ChangeRoutes {
    let tenancy: Tenancy
    /// The event streams whose clients may stop reading.
    let stalledStreams: StalledStreams
    /// What ends or marks a stream besides its changes: shutdown, the store's status.
    let signals: StreamSignals
    /// Whether the shared store answers; `nil` on a database file.
    let storageStatus: StorageStatus?
    /// The event stream's bytes of the pages its followers share: encoded once, not per client.
    private let encodedPages = SharedEncodings()

    /// The comment a quiet event stream sends so that proxies and clients keep it open.
    static let heartbeatInterval: Duration = .seconds(15)
    /// The longest `wait` of a long poll, in seconds.
    static let maximumWait = 60
    /// The most events a long poll answers at once.
    static let maximumLimit = 1000

    func add(to router: Router<MnemoRequestContext>) {
        router.get("api/events", use: events)
        router.get("v1/users/:user_id/changes", use: changes)
    }

    /// `GET /api/events`: the caller's changes as Server-Sent Events, from `Last-Event-ID` (or
    /// `?since=`) when given, else from now. Each event's `id` is its cursor; fact events are
    /// named `factsUpdated` and topic events `topicsUpdated`, the names MindChat listens for. A
    /// `ready` event carries the starting cursor, a comment comes every 15 s of quiet, and a
    /// `reset` event ends a stream whose cursor fell out of the feed's window. A client that reads
    /// nothing for ``ServerConfiguration/eventStreamStallLimit`` is disconnected. On a node of a
    /// shared store, `storageUnavailable` says the store stopped answering (the events come from
    /// the node's copy, which may miss other nodes' writes until `storageAvailable`). When the
    /// server shuts down, a `reconnect` event ends the stream: the client resumes from its last
    /// event's id, on another node.
    @Sendable func events(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let kb = try await tenancy.knowledgeBase(context)
        let resumeFrom = request.headers[.lastEventID] ?? QueryFields(request).get("since")
        let cursor = try resumeFrom.map { try kb.cursor($0) }
        if let cursor {
            // A cursor the feed cannot resume from is refused with a status, before the stream.
            _ = try await kb.changes(after: cursor, limit: 1)
        }
        let follower = ChangeFollower(knowledgeBase: kb, cursor: cursor)
        let start = try await follower.position()
        let encoder = context.responseEncoder
        let channel = context.channel
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", .mnemoCursor: start.description],
            body: ResponseBody { writer in
                let watch = stalledStreams.watch(channel)
                defer { watch.end() }
                try await watch.write(ByteBuffer(string: "retry: 3000\n\n" + ServerSentEvent.ready(start)), to: &writer)
                let signals = signals
                try await withGracefulShutdownHandler {
                    var toldUnavailable = false
                    while true {
                        let generation = signals.generation
                        if signals.isStopping {
                            try await watch.write(ServerSentEvent.reconnect, to: &writer)
                            break
                        }
                        if let storageStatus {
                            let state = storageStatus.current
                            if case .unavailable = state, !toldUnavailable {
                                try await watch.write(ByteBuffer(string: ServerSentEvent.storage(state)), to: &writer)
                                toldUnavailable = true
                            } else if state == .available, toldUnavailable {
                                try await watch.write(ByteBuffer(string: ServerSentEvent.storage(state)), to: &writer)
                                toldUnavailable = false
                            }
                        }
                        let wake: StreamWake
                        do {
                            wake = try await Self.next(of: follower, orSignalAfter: generation, of: signals)
                        } catch let error as MnemoError {
                            try await watch.write(ByteBuffer(string: ServerSentEvent.reset(error)), to: &writer)
                            break
                        }
                        if let page = wake.page {
                            try await watch.write(
                                page.events.isEmpty
                                    ? ServerSentEvent.keepAlive
                                    : try encodedPages.bytes(of: page) {
                                        ByteBuffer(
                                            string: try page.events.map {
                                                try ServerSentEvent.change($0, encoder: encoder)
                                            }
                                            .joined())
                                    }, to: &writer)
                        } else if !wake.signalled {
                            break
                        }
                    }
                } onGracefulShutdown: {
                    signals.stop()
                }
                try await writer.finish(nil)
            })
    }

    /// What woke a stream: a page of its follower (or none: the follower ended, or was cut short
    /// by the signal), and whether a signal rang.
    struct StreamWake {
        var page: ChangePage?
        var signalled = false
    }

    /// The follower's next page (or keep-alive time) or a ring of `signals` after `generation`,
    /// whichever comes first. A page the follower read as the ring came is kept, not dropped.
    static func next(of follower: ChangeFollower, orSignalAfter generation: Int, of signals: StreamSignals)
        async throws -> StreamWake
    {
        enum Outcome: Sendable {
            case page(ChangePage?)
            case signal
        }
        return try await withThrowingTaskGroup(of: Outcome.self) { group in
            group.addTask {
                do {
                    return .page(try await follower.nextPage(limit: 100, waitingUpTo: Self.heartbeatInterval))
                } catch is CancellationError {
                    return .page(nil)
                }
            }
            group.addTask {
                await signals.wait(after: generation)
                return Task.isCancelled ? .page(nil) : .signal
            }
            var wake = StreamWake()
            var first = true
            while let outcome = try await group.next() {
                switch outcome {
                case .page(let page): wake.page = wake.page ?? page
                case .signal: wake.signalled = true
                }
                if first { group.cancelAll() }
                first = false
            }
            return wake
        }
    }

    /// `GET /v1/users/{user_id}/changes?since=&limit=&wait=`: the user's changes after `since`
    /// (from the feed's start when absent), at most `limit` (default 100, at most 1000), waiting
    /// up to `wait` seconds (0 to 60, default 0) for one when there are none.
    @Sendable func changes(_ request: Request, context: MnemoRequestContext) async throws -> ChangePageJSON {
        let kb = try await tenancy.knowledgeBase(context, naming: context.parameters.get("user_id"))
        let query = QueryFields(request)
        let cursor = try query.get("since").map { try kb.cursor($0) } ?? kb.feedOrigin
        let limit = try query.integer("limit", in: 1...Self.maximumLimit) ?? 100
        let wait = try query.integer("wait", in: 0...Self.maximumWait) ?? 0
        guard wait > 0 else { return ChangePageJSON(try await kb.changes(after: cursor, limit: limit)) }
        let follower = ChangeFollower(knowledgeBase: kb, cursor: cursor)
        guard let page = try await follower.nextPage(limit: limit, waitingUpTo: .seconds(wait)) else {
            throw CancellationError()
        }
        return ChangePageJSON(page)
    }
}

/// The text of the event stream's messages.
enum ServerSentEvent {
    /// The comment that keeps a quiet stream open.
    static let keepAlive = ByteBuffer(string: ": keep-alive\n\n")

    static func ready(_ cursor: ChangeCursor) -> String {
        "id: \(cursor)\nevent: ready\ndata: {\"cursor\":\"\(cursor)\"}\n\n"
    }

    static func change(_ event: ChangeEvent, encoder: JSONEncoder) throws -> String {
        let data = String(decoding: try encoder.encode(ChangeEventJSON(event)), as: UTF8.self)
        let name = event.kind.concernsTopics ? "topicsUpdated" : "factsUpdated"
        return "id: \(event.cursor)\nevent: \(name)\ndata: \(data)\n\n"
    }

    /// The last event of a stream whose server is stopping: reconnect (behind a load balancer, to
    /// another node) from the last event's id, half a second later.
    static let reconnect = ByteBuffer(
        string:
            "retry: 500\nevent: reconnect\ndata: {\"code\":\"server_stopping\",\"message\":\"this server is stopping: reconnect from the last event id\"}\n\n"
    )

    /// The store stopped or started answering: while it does not, the events come from the node's
    /// copy, which may lack writes of other nodes made since `last_contact`.
    static func storage(_ state: StorageAvailability) -> String {
        switch state {
        case .available:
            return "event: storageAvailable\ndata: {\"state\":\"available\"}\n\n"
        case .unavailable(let since, let lastContact, _):
            let format = ISO8601DateFormatter()
            return
                "event: storageUnavailable\ndata: {\"state\":\"unavailable\",\"since\":\"\(format.string(from: since))\","
                + "\"last_contact\":\"\(format.string(from: lastContact))\",\"message\":\"the store does not answer: "
                + "these events come from this server's copy, which may lack other servers' writes, and writes fail\"}\n\n"
        }
    }

    static func reset(_ error: MnemoError) -> String {
        let code = if case .cursorExpired = error { "cursor_expired" } else { "unavailable" }
        return "event: reset\ndata: {\"code\":\"\(code)\",\"message\":\"read the memory again and reconnect\"}\n\n"
    }
}

/// The bytes made of the pages that followers share (``ChangePage/sharedNumber``), for as long as
/// the followers may still ask for them: each stream writes the same buffer, not a copy.
final class SharedEncodings: Sendable {
    /// How many encodings are kept: a page is asked for by the followers woken by one commit, so
    /// only the newest few are still wanted.
    private static let capacity = 16
    private let encodings = Locked<[(number: Int, bytes: ByteBuffer)]>([])

    func bytes(of page: ChangePage, encoding encode: () throws -> ByteBuffer) rethrows -> ByteBuffer {
        guard let number = page.sharedNumber else { return try encode() }
        if let known = encodings.withLock({ $0.first { $0.number == number }?.bytes }) { return known }
        let bytes = try encode()
        encodings.withLock { encodings in
            encodings.append((number, bytes))
            if encodings.count > Self.capacity { encodings.removeFirst() }
        }
        return bytes
    }
}

/// `answer` with the feed's cursor it reflects in `Mnemo-Cursor`: a client that follows the
/// feed from it misses nothing the answer lacks (see `KnowledgeBase.reflectingCursor(_:)`).
func reflectingCursor<Answer: ResponseGenerator>(of kb: KnowledgeBase, _ answer: () async throws -> Answer)
    async throws -> EditedResponse<Answer>
{
    let (response, cursor) = try await kb.reflectingCursor(answer)
    return EditedResponse(headers: [.mnemoCursor: cursor.description], response: response)
}

extension HTTPField.Name {
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
    /// The change feed cursor an answer reflects: follow the feed from it to miss nothing.
    static let mnemoCursor = HTTPField.Name("Mnemo-Cursor")!
}

extension QueryFields {
    /// A whole number within `range`, or `nil` when absent.
    func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = get(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw APIError.badRequest(
                "invalid_\(name)",
                "\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
        }
        return value
    }
}
