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

    /// A whole page: `title`, the view's markup in `main`, the navigation with `current` marked.
    func page(
        _ title: String, current: String? = nil, context: MnemoRequestContext, status: HTTPResponse.Status = .ok,
        _ body: HTML
    ) -> Response {
        let links = Self.sections.map { section -> HTML in
            let marker: HTML = section.path == current ? " aria-current=\"page\"" : ""
            return "<li><a href=\"\(section.path)\"\(marker)>\(section.title)</a></li>"
        }
        var account: HTML = ""
        if signsIn, let session = context.pageSession, let namespace = session.namespace {
            account = """
                <form method="post" action="/ui/logout" class="account"><span>Signed in as \(namespace)</span> \
                \(csrf(context))<button type="submit">Sign out</button></form>
                """
        }
        let readOnly: HTML =
            mode == .readOnly ? "<p class=\"notice\" role=\"note\">Read-only: this page changes nothing.</p>" : ""
        let html: HTML = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) · Mnemo</title>
            <link rel="stylesheet" href="/ui/assets/page.css">
            <script src="/ui/assets/page.js" defer></script>
            </head>
            <body>
            <a class="skip" href="#main">Skip to content</a>
            <header>
            <p class="brand">Mnemo memory</p>
            <nav aria-label="Sections"><ul>\(links)</ul></nav>
            \(account)
            </header>
            <main id="main" tabindex="-1">
            <div class="live" role="status" aria-live="polite" hidden></div>
            \(readOnly)
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

    /// A form that posts to `action` with one button, or nothing on a read-only page.
    func button(
        _ label: String, action: String, context: MnemoRequestContext, fields: [(String, String)] = [],
        style: String? = nil
    ) -> HTML {
        guard mode.allowsChanges else { return "" }
        let hidden = fields.map { field -> HTML in "<input type=\"hidden\" name=\"\(field.0)\" value=\"\(field.1)\">" }
        let classAttribute: HTML = style.map { "class=\"\($0)\"" } ?? ""
        return """
            <form method="post" action="\(action)" class="inline">\(csrf(context))\(hidden)\
            <button type="submit" \(classAttribute)>\(label)</button></form>
            """
    }

    /// An HTML page for an error, with the error's status.
    func errorPage(_ error: APIError, context: MnemoRequestContext) -> Response {
        var response = page(
            error.status.reasonPhrase, context: context, status: error.status,
            "<p class=\"error\" role=\"alert\">\(error.message)</p><p><a href=\"/ui\">Back to the topics</a></p>")
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
