import Foundation
import HTTPTypes
import Hummingbird

/// Answers 405 Method Not Allowed, with an `Allow` header, to a request whose path the server
/// serves with other methods (Hummingbird's router answers 404 to those). The paths and methods
/// are the OpenAPI document's, which a test keeps equal to the router's routes.
struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = MnemoRequestContext

    /// A documented path: its segments (`nil` for a `{parameter}`) and its methods.
    struct Route: Sendable {
        var segments: [String?]
        var methods: [HTTPRequest.Method]

        var constantCount: Int { segments.count { $0 != nil } }

        func matches(_ path: [Substring]) -> Bool {
            path.count == segments.count && zip(segments, path).allSatisfy { $0 == nil || $0! == $1 }
        }
    }

    let routes: [Route]

    init(openAPI data: Data = OpenAPIDocument.data) {
        let document = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        let paths = document?["paths"] as? [String: [String: Any]] ?? [:]
        routes = paths.map { path, operations in
            Route(
                segments: path.split(separator: "/").map { $0.hasPrefix("{") ? nil : String($0) },
                methods: operations.keys.compactMap { HTTPRequest.Method($0.uppercased()) })
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        // Only a request the router found no route for is looked at: the routes need not be
        // walked for every request answered.
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            throw methodNotAllowed(request) ?? error
        }
    }

    /// The 405 error for a request whose path is served with other methods only.
    private func methodNotAllowed(_ request: Request) -> APIError? {
        let path = request.uri.path.split(separator: "/")
        // The router prefers a constant segment to a parameter (`/api/topics/stats` is not
        // `/api/topics/{topic_id}`), so only the most specific documented paths count.
        let matching = routes.filter { $0.matches(path) }
        let specificity = matching.map(\.constantCount).max()
        let candidates = matching.filter { $0.constantCount == specificity }
        let allowed = Set(candidates.flatMap(\.methods))
        guard !candidates.isEmpty, !allowed.contains(request.method) else { return nil }
        let methods = allowed.map(\.rawValue).sorted().joined(separator: ", ")
        var error = APIError(
            .methodNotAllowed, "method_not_allowed", "\(request.uri.path) takes \(methods), not \(request.method)")
        error.headers[.allow] = methods
        return error
    }
}
