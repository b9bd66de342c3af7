import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sync with a `mnemo serve` over HTTP, through Foundation's `URLSession` (the routes
/// `/v1/users/{user_id}/sync/…` of its OpenAPI document).
///
/// ```swift
/// let transport = URLSessionSyncTransport(server: server, user: "user-42", token: token)
/// let report = try await kb.sync(with: transport)
/// print("pushed \(report.pushed), pulled \(report.pulled), merged \(report.merged)")
/// ```
public struct URLSessionSyncTransport: SyncTransport {
    /// The server's base URL, such as `http://127.0.0.1:8080`.
    public let server: URL
    /// The user (namespace) to sync: the token's.
    public let user: String
    /// The bearer token, if the server asks for one.
    public let token: String?
    public let session: URLSession

    public init(server: URL, user: String, token: String?, session: URLSession = .shared) {
        self.server = server
        self.user = user
        self.token = token
        self.session = session
    }

    public func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return try await send("push", method: "POST", body: try encoder.encode(request))
    }

    public func pull(after cursor: String, server identity: String, limit: Int, model: EmbeddingModelIdentity?)
        async throws -> SyncPullResponse
    {
        try await send(
            "changes",
            query: [("since", cursor), ("server", identity), ("limit", String(limit))] + Self.query(for: model))
    }

    public func snapshot(model: EmbeddingModelIdentity?) async throws -> SyncSnapshotResponse {
        try await send("snapshot", query: Self.query(for: model))
    }

    private static func query(for model: EmbeddingModelIdentity?) -> [(String, String)] {
        model.map { [("model", $0.name), ("dimension", String($0.dimension))] } ?? []
    }

    private func send<Answer: Decodable>(
        _ route: String, method: String = "GET", query: [(String, String)] = [], body: Data? = nil
    ) async throws -> Answer {
        let userSegment = user.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? user
        var components = URLComponents(
            url: server.appendingPathComponent("v1/users/\(userSegment)/sync/\(route)", isDirectory: false),
            resolvingAgainstBaseURL: false)
        if !query.isEmpty { components?.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        guard let url = components?.url else {
            throw MnemoError.invalidInput(field: "server", reason: "\(server) does not make a URL with \(route)")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, status) = try await exchange(request)
        guard status == 200 else { throw Self.error(status: status, body: data, user: user) }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(Answer.self, from: data)
        } catch {
            throw MnemoError.storageUnavailable(
                reason: "the server's answer to \(route) does not read as sync: \(error)")
        }
    }

    private func exchange(_ request: URLRequest) async throws -> (Data, Int) {
        try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(
                        throwing: MnemoError.storageUnavailable(
                            reason: "cannot reach \(request.url?.host ?? "the server"): \(error.localizedDescription)"))
                } else {
                    continuation.resume(returning: (data ?? Data(), (response as? HTTPURLResponse)?.statusCode ?? 0))
                }
            }.resume()
        }
    }

    /// The server's refusal as a Mnemo error: 410 is an expired cursor, 400 bad input (its
    /// code standing for the field), anything else the server being unavailable to this sync.
    private static func error(status: Int, body: Data, user: String) -> MnemoError {
        struct Refusal: Decodable {
            struct Body: Decodable {
                var code: String
                var message: String
            }
            var error: Body
        }
        let refusal = try? JSONDecoder().decode(Refusal.self, from: body)
        let code = refusal?.error.code ?? "http_\(status)"
        let message = refusal?.error.message ?? String(decoding: body.prefix(200), as: UTF8.self)
        switch status {
        case 410: return .cursorExpired(namespace: user)
        case 400: return .invalidInput(field: code, reason: message)
        default: return .storageUnavailable(reason: "the server answered \(status) \(code): \(message)")
        }
    }
}
