import Foundation
import Hummingbird
import Mnemo
import NIOCore

/// The per-request state of the server: Hummingbird's core storage, the authenticated user, and
/// the decoder and encoder every route's bodies go through.
package struct MnemoRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The connection the request came on; an event stream closes it when its client stalls.
    package let channel: any Channel
    /// The namespace the request's bearer token grants; `nil` when authentication is off.
    package var user: String?
    /// The fact limit of the request's token when its tokens-file line sets one (its plan);
    /// `nil` for the server's own limit.
    package var factLimit: TokenFactLimit?
    /// The largest body a route reads; larger ones get 413. Set from the server's configuration
    /// by ``RequestLimitMiddleware``.
    package var maximumBodySize = ServerConfiguration().maximumBodySize
    /// The memory page's session of the browser that sent a `/ui` request (see ``PageSession``).
    package var pageSession: PageSession?

    package init(source: Source) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }

    package var maxUploadSize: Int { maximumBodySize }

    /// Request bodies: JSON objects with snake_case keys, with the server's error codes for bodies
    /// that are not JSON, too large or of the wrong shape.
    package var requestDecoder: MnemoRequestDecoder { MnemoRequestDecoder(limit: maximumBodySize) }

    /// Response bodies: snake_case keys, dates in whole seconds (`2024-01-15T10:30:00Z`), which the
    /// apps decode with `JSONDecoder`'s `.iso8601` strategy (it refuses a fraction of a second).
    package var responseEncoder: JSONEncoder { .mnemoOutput(pretty: false, wholeSeconds: Self.datesInWholeSeconds) }

    /// Answers give dates in whole seconds (see ``responseEncoder``), whichever writes them.
    static let datesInWholeSeconds = true
}

/// Gives every request the server's body limit.
struct RequestLimitMiddleware: RouterMiddleware {
    typealias Context = MnemoRequestContext
    let maximumBodySize: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        context.maximumBodySize = maximumBodySize
        return try await next(request, context)
    }
}
