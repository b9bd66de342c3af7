import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// HTTP/1 connections whose tasks run on the event loop of their own channel.
///
/// Without it, each request's task runs on Swift's cooperative pool: NIO reads the request on
/// its loop, wakes a thread of the pool to answer it, and the answer is written back on the
/// loop, two thread hops and two wake-ups per request, 10–15 % of the server's CPU under load.
/// Here a connection's task prefers its channel's loop as its executor (SE-0417), so a request
/// is read, answered and written on one thread; everything else (background builds, purges)
/// stays on the pool. See the Serving article for the figures.
struct ConnectionLoopChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else {
            return await base.handle(value: value, logger: logger)
        }
        await withTaskExecutorPreference(EventLoopTaskExecutor(loop: value.channel.eventLoop)) {
            await base.handle(value: value, logger: logger)
        }
    }
}

/// A task executor that runs its jobs on one NIO event loop.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
final class EventLoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop

    init(loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with each connection's requests answered on its channel's event loop.
    static func http1OnConnectionLoops(configuration: HTTP1Channel.Configuration = .init()) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            ConnectionLoopChannel(base: HTTP1Channel(responder: responder, configuration: configuration))
        }
    }
}

/// Requests other than `GET` and `HEAD` answered on Swift's cooperative pool, as before the
/// loops answered reads: a write embeds its facts on the calling thread (a few milliseconds a
/// fact), and on a loop that would hold every other connection of that loop meanwhile; on the
/// pool any free thread takes the next request. Reads stay on their connection's loop, but for
/// those that read a whole namespace (``onThePool(_:)``).
struct WritesOnThePoolMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard request.method != .get, request.method != .head else { return try await next(request, context) }
        return try await runOnThePool { try await next(request, context) }
    }
}

/// A read whose answer holds a whole namespace (a device's sync snapshot, an export), answered and
/// encoded on Swift's pool like a write rather than on its connection's loop.
func onThePool<Context: RequestContext, Output: ResponseGenerator>(
    _ handler: @escaping @Sendable (Request, Context) async throws -> Output
) -> @Sendable (Request, Context) async throws -> Response {
    { request, context in
        try await runOnThePool { try await handler(request, context).response(from: request, context: context) }
    }
}

/// `work` on Swift's cooperative pool, whatever executor the calling task prefers.
private func runOnThePool<Value>(_ work: () async throws -> Value) async throws -> Value {
    guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else { return try await work() }
    return try await withTaskExecutorPreference(globalConcurrentExecutor, operation: work)
}
