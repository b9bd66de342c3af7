import Foundation
import Hummingbird
import Mnemo

/// The memory page, `/ui`: server-rendered views of the caller's memory, each at its own URL,
/// and its actions as plain forms. See the DocC article "The memory page".
struct PageRoutes {
    let tenancy: Tenancy
    let configuration: ServerConfiguration
    let authentication: Authentication
    let sessions: PageSessions
    let renderer: PageRenderer
    /// The change feed's routes, whose event stream the page follows.
    let changes: ChangeRoutes

    /// The rows a list shows at once.
    static let pageSize = 50

    init(
        tenancy: Tenancy, configuration: ServerConfiguration, authentication: Authentication, sessions: PageSessions,
        changes: ChangeRoutes
    ) {
        self.tenancy = tenancy
        self.changes = changes
        self.configuration = configuration
        self.authentication = authentication
        self.sessions = sessions
        self.renderer = PageRenderer(mode: configuration.page, signsIn: authentication.requiresToken)
    }

    func add(to router: Router<MnemoRequestContext>) {
        guard configuration.page != .off else { return }
        let ui = router.group("ui")
            .add(
                middleware: PageMiddleware(
                    sessions: sessions, authentication: authentication, mode: configuration.page, renderer: renderer))
        ui.get("assets/page.css") { _, _ in PageAssets.response(PageAssets.stylesheet, type: "text/css; charset=utf-8")
        }
        ui.get("assets/page.js") { _, _ in
            PageAssets.response(PageAssets.script, type: "text/javascript; charset=utf-8")
        }
        ui.get("assets/icon.svg") { _, _ in PageAssets.response(PageAssets.icon, type: "image/svg+xml") }
        ui.get("login", use: signInForm)
        ui.post("login", use: signIn)
        ui.post("logout", use: signOut)
        ui.get("events", use: events)
        ui.get("", use: topicTree)
        ui.get("topics/:topic_id", use: topic)
        ui.get("search", use: search)
        ui.get("facts/:fact_id", use: fact)
        ui.get("conflicts", use: conflicts)
        ui.get("stats", use: stats)
        ui.get("undo", use: undoList)
        ui.get("merge", use: mergePreview)
        ui.get("export", use: exportPage)
        ui.get("export.jsonl", use: onThePool(export))
        ui.post("export", use: exportSelected)
        ui.get("erase", use: eraseForm)
        ui.get("receipts/:receipt", use: receipt)
        ui.post("facts/:fact_id/edit", use: editFact)
        ui.post("facts/:fact_id/deactivate", use: deactivateFact)
        ui.post("facts/:fact_id/reactivate", use: reactivateFact)
        ui.post("facts/:fact_id/delete", use: deleteFact)
        ui.post("facts/:fact_id/erase", use: eraseFact)
        ui.post("conflicts/:conflict_id/resolve", use: resolveConflict)
        ui.post("undo", use: undo)
        ui.post("merge", use: merge)
        ui.post("bulk", use: bulk)
        ui.post("erase", use: eraseMemory)
        // An address that only takes a form (the address bar after a refused one, a bookmark)
        // opened with GET: the view that holds the form.
        for action in ["edit", "deactivate", "reactivate", "delete", "erase"] {
            ui.get("facts/:fact_id/\(action)") { _, context in
                PageRenderer.redirect(to: "/ui/facts/\(context.parameters.get("fact_id") ?? "")")
            }
        }
        ui.get("conflicts/:conflict_id/resolve") { _, _ in PageRenderer.redirect(to: "/ui/conflicts") }
        ui.get("bulk") { _, _ in PageRenderer.redirect(to: "/ui/search") }
        ui.get("logout") { _, _ in PageRenderer.redirect(to: "/ui") }
        // Any other address under /ui is a page saying so, not the API's JSON.
        ui.get("**") { request, _ -> Response in throw APIError.notFound("no page at \(request.uri.path)") }
        ui.post("**") { request, _ -> Response in throw APIError.notFound("no page at \(request.uri.path)") }
    }

    /// The caller's knowledge base (the session's namespace, or the default one without auth).
    func knowledgeBase(_ context: MnemoRequestContext) async throws -> KnowledgeBase {
        try await tenancy.knowledgeBase(context)
    }

    /// A POSTed form's fields (the middleware has read the body and checked its CSRF token).
    func form(_ request: Request, _ context: MnemoRequestContext) async throws -> QueryFields {
        var request = request
        return QueryFields(encoded: String(buffer: try await request.collectBody(upTo: context.maxUploadSize)))
    }

    /// `GET /ui/events`: the change feed as Server-Sent Events, the same stream as
    /// `GET /api/events`, authenticated by the session cookie; the page's script follows it.
    @Sendable func events(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        try await changes.events(request, context: context)
    }

    /// The query string's fields without the empty ones: a GET form's "any" choice sends `type=`,
    /// which means no filter, not an empty type.
    static func filledFields(_ request: Request) -> QueryFields {
        QueryFields(
            encoded: (request.uri.query ?? "").split(separator: "&").filter { !$0.hasSuffix("=") }.joined(
                separator: "&"))
    }

    /// The offset of a list's page, from the query string.
    static func offset(_ query: QueryFields) throws -> Int {
        try query.integer("offset", in: 0...SearchParameters.maximumOffset) ?? 0
    }
}
