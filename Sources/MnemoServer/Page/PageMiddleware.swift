import Foundation
import HTTPTypes
import Hummingbird
import Mnemo

/// What every `/ui` request goes through: its session (opened on first visit, so that even the
/// sign-in form carries a CSRF token), sign-in when the server requires a token, the CSRF check
/// and the read-only refusal of a POST, HTML error pages, and the security headers.
struct PageMiddleware: RouterMiddleware {
    typealias Context = MnemoRequestContext

    let sessions: PageSessions
    let authentication: Authentication
    let mode: PageMode
    let renderer: PageRenderer

    /// Paths open without signing in.
    static let openPaths: Set<String> = assetPaths.union(["/ui/login"])

    /// The stylesheet, the script and the icon: open, and no reason to open a session.
    static let assetPaths: Set<String> = ["/ui/assets/page.css", "/ui/assets/page.js", "/ui/assets/icon.svg"]

    /// GETs that are not views: they neither need a session opened nor take the session's flash.
    static func isView(_ path: String) -> Bool {
        !assetPaths.contains(path) && path != "/ui/events" && path != "/ui/export.jsonl"
    }

    /// The POSTs a read-only page still takes: they change no memory.
    static let readingPosts: Set<String> = ["/ui/login", "/ui/logout", "/ui/export"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        var request = request
        let path = request.uri.path
        var cookie: String?
        let id = SessionCookie.value(in: request.headers[.cookie])
        var session = await sessions.session(id: id)
        if let id, session?.flash != nil, request.method == .get, Self.isView(path) {
            session = await sessions.takeFlash(id: id)
        }
        if session == nil, !Self.assetPaths.contains(path) {
            let opened = await sessions.open()
            cookie = SessionCookie.setting(opened, secure: SessionCookie.isHTTPS(request))
            session = opened
        }
        context.pageSession = session
        context.user = session?.namespace
        context.factLimit = session?.factLimit
        var response: Response
        do {
            if authentication.requiresToken, session?.isSignedIn != true, !Self.openPaths.contains(path) {
                response = PageRenderer.redirect(to: "/ui/login")
            } else {
                if request.method == .post { try await check(&request, context: context) }
                response = try await next(request, context)
            }
        } catch {
            response = renderer.errorPage(APIError.from(error), context: context)
        }
        // A sign-in or sign-out sets its own cookie, which must not be overridden.
        if let cookie, response.headers[.setCookie] == nil {
            response.headers.append(HTTPField(name: .setCookie, value: cookie))
        }
        Self.secure(&response.headers)
        return response
    }

    /// Refuses a POST the page does not allow (read-only mode) or whose form lacks the session's
    /// CSRF token: another site's page cannot make a signed-in browser act.
    private func check(_ request: inout Request, context: Context) async throws {
        let path = request.uri.path
        if !mode.allowsChanges, !Self.readingPosts.contains(path) {
            throw APIError(.forbidden, "read_only", "this page is read-only (mnemo serve --ui read-only)")
        }
        let body = try await request.collectBody(upTo: context.maxUploadSize)
        let form = QueryFields(encoded: String(buffer: body))
        guard let expected = context.pageSession?.csrfToken, let sent = form.get(PageRenderer.csrfField),
            sent.constantTimeEquals(expected)
        else {
            throw APIError(
                .forbidden, "csrf", "the form is stale or came from another page; open the page again and resend it")
        }
    }

    /// The page's headers: only its own scripts, styles and connections, never in a frame, no
    /// guessing of types, no caching of someone's memory, no referrer beyond the page.
    static func secure(_ headers: inout HTTPFields) {
        headers[.contentSecurityPolicy] =
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        headers[.xFrameOptions] = "DENY"
        headers[.xContentTypeOptions] = "nosniff"
        headers[.referrerPolicy] = "same-origin"
        if headers[.cacheControl] == nil { headers[.cacheControl] = "no-store" }
    }
}

extension HTTPField.Name {
    static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
