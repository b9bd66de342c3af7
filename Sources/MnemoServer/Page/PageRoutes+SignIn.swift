import Foundation
import HTTPTypes
import Hummingbird
import Mnemo

extension PageRoutes {
    /// `GET /ui/login`: the form that exchanges the API's token (or JWT) for a session cookie.
    @Sendable func signInForm(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        guard authentication.requiresToken else { return PageRenderer.redirect(to: "/ui") }
        return signInPage(context, problem: nil)
    }

    private func signInPage(_ context: MnemoRequestContext, problem: String?) -> Response {
        let alert: HTML = problem.map { "<p class=\"error\" role=\"alert\" id=\"sign-in-problem\">\($0)</p>" } ?? ""
        return renderer.page(
            "Sign in", context: context, status: problem == nil ? .ok : .unauthorized,
            """
            <p>Paste the token your app uses with this server. It is checked once and exchanged for a \
            session cookie that scripts cannot read; the page never stores the token.</p>
            \(alert)
            <form method="post" action="/ui/login">\(renderer.csrf(context))
            <label for="token">Token</label>
            <input id="token" name="token" type="password" autocomplete="off" required \
            \(problem == nil ? "" : "aria-describedby=\"sign-in-problem\"")>
            <button type="submit">Sign in</button>
            </form>
            """)
    }

    /// `POST /ui/login`: a valid token opens a new session (a new id, so a session planted
    /// before sign-in is worthless) for the token's namespace.
    @Sendable func signIn(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let token = try await form(request, context).get("token")?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let token, !token.isEmpty, let grant = await authentication.grant(forBearer: token) else {
            return signInPage(context, problem: "That token is not valid here.")
        }
        if let old = context.pageSession { await sessions.close(id: old.id) }
        let session = await sessions.open(namespace: grant.namespace, factLimit: grant.factLimit)
        var response = PageRenderer.redirect(to: "/ui")
        response.headers.append(
            HTTPField(name: .setCookie, value: SessionCookie.setting(session, secure: SessionCookie.isHTTPS(request))))
        return response
    }

    /// `POST /ui/logout`: ends the session and clears the cookie.
    @Sendable func signOut(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        if let session = context.pageSession { await sessions.close(id: session.id) }
        var response = PageRenderer.redirect(to: authentication.requiresToken ? "/ui/login" : "/ui")
        response.headers.append(HTTPField(name: .setCookie, value: SessionCookie.clearing))
        return response
    }
}
