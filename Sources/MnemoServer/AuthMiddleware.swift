import Hummingbird

/// Finds the request's user from its bearer token; answers 401 when a token is required and
/// missing or invalid. `/healthz`, `/metrics` and `/openapi.json` are open to all; the memory
/// page (`/ui`) signs its users in with a session cookie instead (see ``PageMiddleware``).
struct AuthMiddleware: RouterMiddleware {
    typealias Context = MnemoRequestContext

    let authentication: Authentication
    static let openPaths: Set<String> = ["/healthz", "/metrics", "/openapi.json"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let path = request.uri.path
        guard authentication.requiresToken, !Self.openPaths.contains(path), path != "/ui", !path.hasPrefix("/ui/")
        else {
            return try await next(request, context)
        }
        guard let token = Self.bearerToken(request.headers[.authorization]) else {
            throw unauthorized("send `Authorization: Bearer <token>`")
        }
        guard let grant = await authentication.grant(forBearer: token) else {
            throw unauthorized("the bearer token is not valid")
        }
        var context = context
        context.user = grant.namespace
        context.factLimit = grant.factLimit
        return try await next(request, context)
    }

    static func bearerToken(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    private func unauthorized(_ message: String) -> APIError {
        var error = APIError(.unauthorized, "unauthorized", message)
        error.headers[.wwwAuthenticate] = "Bearer"
        return error
    }
}
