import Foundation
import HTTPTypes
import Hummingbird
import Mnemo

/// The frame every view shares (landmarks, navigation, the session's sign-out form) and the
/// pieces views repeat: forms with their CSRF token, dates, pagers, error pages.
struct PageRenderer: Sendable {
    let mode: PageMode
    let signsIn: Bool

    /// The form field that carries the session's CSRF token.
    static let csrfField = "csrf"

    static let sections: [(path: String, title: String)] = [
        ("/ui", "Topics"), ("/ui/search", "Search"), ("/ui/conflicts", "Conflicts"), ("/ui/stats", "Stats"),
        ("/ui/undo", "Undo"), ("/ui/export", "Export"), ("/ui/erase", "Erase all"),
    ]

    /// Whether the request's browser may see the sections: signed in, or on a server that signs
    /// nobody in. The sign-in page shows no menu and follows no change feed.
    func showsSections(_ context: MnemoRequestContext) -> Bool {
        !signsIn || context.pageSession?.isSignedIn == true
    }

    /// A whole page: `title`, the view's markup in `main`, the navigation with `current` marked,
    /// and the session's flash (what the last action did) above the view.
    func page(
        _ title: String, current: String? = nil, context: MnemoRequestContext, status: HTTPResponse.Status = .ok,
        _ body: HTML
    ) -> Response {
        let sections = showsSections(context)
        let links = Self.sections.map { section -> HTML in
            let marker: HTML = section.path == current ? " aria-current=\"page\"" : ""
            return "<li><a href=\"\(section.path)\"\(marker)>\(section.title)</a></li>"
        }
        let navigation: HTML = sections ? "<nav aria-label=\"Sections\"><ul>\(links)</ul></nav>" : ""
        var account: HTML = ""
        if signsIn, let session = context.pageSession, let namespace = session.namespace {
            account = """
                <form method="post" action="/ui/logout" class="account"><span>Signed in as \(namespace)</span> \
                \(csrf(context))<button type="submit">Sign out</button></form>
                """
        }
        let readOnly: HTML =
            mode == .readOnly ? "<p class=\"notice\" role=\"note\">Read-only: this page changes nothing.</p>" : ""
        let flash: HTML? = context.pageSession?.flash.map { message -> HTML in
            "<p class=\"notice flash\" role=\"status\">\(message)</p>"
        }
        let follow: HTML = sections ? " data-follow=\"true\"" : ""
        let html: HTML = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) · Mnemo</title>
            <link rel="icon" href="/ui/assets/icon.svg" type="image/svg+xml">
            <link rel="stylesheet" href="/ui/assets/page.css">
            <script src="/ui/assets/page.js" defer></script>
            </head>
            <body\(follow)>
            <a class="skip" href="#main">Skip to content</a>
            <header>
            <p class="brand"><a href="/ui">Mnemo memory</a></p>
            \(navigation)
            \(account)
            </header>
            <main id="main" tabindex="-1">
            <div class="live" id="live" role="status" aria-live="polite" hidden></div>
            \(readOnly)
            \(flash)
            <h1>\(title)</h1>
            \(body)
            </main>
            <footer><p>Served by <code>mnemo serve</code>. Every view is a link you can bookmark.</p></footer>
            </body>
            </html>

            """
        return Self.htmlResponse(html, status: status)
    }

    static func htmlResponse(_ html: HTML, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: html.text)))
    }

    /// After a form: the view that shows its result (POST, then redirect, then GET).
    static func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }

    /// The hidden field that proves a form came from this session's page.
    func csrf(_ context: MnemoRequestContext) -> HTML {
        "<input type=\"hidden\" name=\"\(Self.csrfField)\" value=\"\(context.pageSession?.csrfToken ?? "")\">"
    }

    /// A form that posts to `action` with one button, or nothing on a read-only page. `about`
    /// names the row the button acts on for a screen reader (visually hidden), when the same
    /// button repeats on a view: "Undo operation #12".
    func button(
        _ label: String, action: String, context: MnemoRequestContext, fields: [(String, String)] = [],
        style: String? = nil, about: String? = nil
    ) -> HTML {
        guard mode.allowsChanges else { return "" }
        let hidden = fields.map { field -> HTML in "<input type=\"hidden\" name=\"\(field.0)\" value=\"\(field.1)\">" }
        let classAttribute: HTML = style.map { " class=\"\($0)\"" } ?? ""
        let hiddenName: HTML = about.map { "<span class=\"vh\"> \($0)</span>" } ?? ""
        return """
            <form method="post" action="\(action)" class="inline">\(csrf(context))\(hidden)\
            <button type="submit"\(classAttribute)>\(label)\(hiddenName)</button></form>
            """
    }

    /// A fact's content cut to `limit` characters, for the names of the buttons that act on it.
    static func excerpt(_ text: String, limit: Int = 40) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        guard line.count > limit else { return "“\(line)”" }
        return "“\(line.prefix(limit - 1).trimmingCharacters(in: .whitespaces))…”"
    }

    /// `1 fact`, `2 facts`.
    static func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(number) \(number == 1 ? singular : plural ?? singular + "s")"
    }

    /// The error beside a refused form's field, and the attributes that tie the field to it.
    static func fieldError(_ problem: FormProblem?, _ field: String, id: String) -> (message: HTML, attributes: HTML) {
        guard let problem, problem.field == field else { return ("", "") }
        return (
            "<p class=\"error field-error\" id=\"\(id)-error\" role=\"alert\">\(problem.message)</p>",
            " aria-invalid=\"true\" aria-describedby=\"\(id)-error\""
        )
    }

    /// An HTML page for an error, with the error's status.
    func errorPage(_ error: APIError, context: MnemoRequestContext) -> Response {
        let back: HTML =
            showsSections(context)
            ? "<p><a href=\"/ui\">Back to the topics</a></p>" : "<p><a href=\"/ui/login\">Sign in</a></p>"
        var response = page(
            error.status.reasonPhrase, context: context, status: error.status,
            "<p class=\"error\" role=\"alert\">\(error.message)</p>\(back)")
        response.headers.append(contentsOf: error.headers)
        return response
    }

    /// Links to the previous and next pages of a list shown `limit` at a time from `offset`.
    static func pager(path: String, query: PageQuery, offset: Int, limit: Int, hasMore: Bool) -> HTML {
        guard offset > 0 || hasMore else { return "" }
        func link(_ offset: Int, _ label: String, _ rel: String) -> HTML {
            var query = query
            if offset > 0 { query.append("offset", String(offset)) }
            return "<a href=\"\(path + query.text)\" rel=\"\(rel)\">\(label)</a>"
        }
        let previous: HTML = offset > 0 ? link(max(0, offset - limit), "← Previous \(limit)", "prev") : ""
        let next: HTML = hasMore ? link(offset + limit, "Next \(limit) →", "next") : ""
        return "<nav class=\"pager\" aria-label=\"Pages\">\(previous) <span>from \(offset + 1)</span> \(next)</nav>"
    }

    /// A moment to the minute, in UTC (`2025-03-01 10:00`), with its exact time for machines.
    static func date(_ date: Date) -> HTML {
        let text = Timestamp.format(date)
        let shown = text.prefix(16).replacingOccurrences(of: "T", with: " ")
        return "<time datetime=\"\(text)\">\(shown)</time>"
    }
}

/// A form the page refused: the values typed, kept to fill the form again, and what was wrong,
/// shown beside `field` (or above the form when `field` is `nil`).
struct FormProblem: Sendable {
    var field: String?
    var message: String
    var values: QueryFields

    init(field: String?, _ error: any Error, values: QueryFields) {
        self.field = field
        self.message = APIError.from(error).message
        self.values = values
    }

    init(field: String?, message: String, values: QueryFields) {
        self.field = field
        self.message = message
        self.values = values
    }
}
