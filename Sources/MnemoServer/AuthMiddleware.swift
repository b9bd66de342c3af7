import Hummingbird

/// Finds the request's user from its bearer token; answers 401 when a token is required and
/// missing or invalid. `/healthz`, `/livez`, `/metrics` and `/openapi.json` are open to all; the memory
/// page (`/ui`) signs its users in with a session cookie instead (see ``PageMiddleware``).
struct AuthMiddleware: RouterMiddleware {
    typealias Context = MnemoRequestContext

    let authentication: Authentication
    static let openPaths: Set<String> = ["/healthz", "/livez", "/metrics", "/openapi.json"]

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

    /// The token of `Bearer <token>` (the scheme in any case, then spaces), without the blanks
    /// around it (tabs and Unicode spaces, as Foundation's `.whitespaces`). Read scalar by scalar:
    /// it runs on every request, where splitting, lowercasing and Foundation's trimming cost 2 % of
    /// a text search.
    static func bearerToken(_ header: String?) -> String? {
        guard let header else { return nil }
        let text = header.unicodeScalars.drop { $0 == " " }
        guard let space = text.firstIndex(of: " "),
            text[..<space].elementsEqual("bearer".unicodeScalars, by: { $0.isASCII && $0.value | 0x20 == $1.value })
        else { return nil }
        func isBlank(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        let rest = text[text.index(after: space)...]
        guard let first = rest.firstIndex(where: { !isBlank($0) }), let last = rest.lastIndex(where: { !isBlank($0) })
        else { return nil }
        return String(Substring(rest[first...last]))
    }

    private func unauthorized(_ message: String) -> APIError {
        var error = APIError(.unauthorized, "unauthorized", message)
        error.headers[.wwwAuthenticate] = "Bearer"
        return error
    }
}
