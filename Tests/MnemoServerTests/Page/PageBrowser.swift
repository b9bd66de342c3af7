import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import MnemoServer

/// A browser in the tests of the memory page: it keeps the session cookie the server sets and
/// the CSRF token of the last page it read, and sends forms as a browser does.
final class PageBrowser: @unchecked Sendable {
    let client: any TestClientProtocol
    private(set) var cookie: String?
    private(set) var csrf: String?

    init(_ client: any TestClientProtocol) {
        self.client = client
    }

    /// Opens a session and signs in with `token`.
    static func signedIn(_ client: any TestClientProtocol, token: String) async throws -> PageBrowser {
        let browser = PageBrowser(client)
        try await browser.get("/ui/login")
        let answer = try await browser.post("/ui/login", ["token": token])
        #expect(answer.status == .seeOther)
        #expect(answer.headers[.location] == "/ui")
        return browser
    }

    @discardableResult
    func get(_ uri: String) async throws -> ServerResponse {
        try await send(.get, uri, body: nil)
    }

    /// Posts a form with the session's CSRF token (unless `csrf` is given, or `nil` to send none).
    @discardableResult
    func post(_ uri: String, _ fields: [String: String], csrf override: String?? = .none) async throws
        -> ServerResponse
    {
        var fields = fields
        let token: String? = override ?? csrf
        if let token { fields[PageRenderer.csrfField] = token }
        let body = fields.sorted { $0.key < $1.key }.map { "\(PageQuery.encode($0.key))=\(PageQuery.encode($0.value))" }
            .joined(separator: "&")
        return try await send(.post, uri, body: body)
    }

    private func send(_ method: HTTPRequest.Method, _ uri: String, body: String?) async throws -> ServerResponse {
        var headers: HTTPFields = [:]
        if let cookie { headers[.cookie] = "\(SessionCookie.name)=\(cookie)" }
        if body != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        let answer = try await client.execute(
            uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }
        ) { response in
            ServerResponse(
                status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
        }
        for field in answer.headers[values: .setCookie] {
            let value = field.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            cookie = value.count == 2 && !value[1].isEmpty ? String(value[1]) : nil
        }
        if let token = Self.csrfToken(in: answer.text) { csrf = token }
        return answer
    }

    static func csrfToken(in html: String) -> String? {
        guard let range = html.range(of: "name=\"\(PageRenderer.csrfField)\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }
}
