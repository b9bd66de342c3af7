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
    /// How long a request may wait for the server's answer before the sync fails with
    /// ``SyncError/Kind/timedOut`` (15 seconds unless given).
    public let timeout: Duration

    /// The default of ``timeout``: a server that accepts the connection and never answers fails
    /// the sync within it.
    public static let defaultTimeout: Duration = .seconds(15)

    public init(
        server: URL, user: String, token: String?, session: URLSession = .shared,
        timeout: Duration = URLSessionSyncTransport.defaultTimeout
    ) {
        self.server = server
        self.user = user
        self.token = token
        self.session = session
        self.timeout = timeout
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
        request.timeoutInterval = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, status) = try await exchange(request)
        guard status == 200 else { throw Self.error(status: status, body: data, user: user, route: route) }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(Answer.self, from: data)
        } catch {
            throw SyncError(
                .incompatibleServer, reason: "the server's answer to \(route) does not read as this version's sync",
                status: status)
        }
    }

    /// One request, cancelled with the calling task.
    private func exchange(_ request: URLRequest) async throws -> (Data, Int) {
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: Self.error(transport: error, request: request))
                    } else {
                        continuation.resume(
                            returning: (data ?? Data(), (response as? HTTPURLResponse)?.statusCode ?? 0))
                    }
                }
                box.set(task)
                task.resume()
            }
        } onCancel: {
            box.cancel()
        }
    }

    /// A failure to exchange with the server, by class: a timeout, a cancelled task, or the
    /// server out of reach.
    private static func error(transport error: any Error, request: URLRequest) -> any Error {
        let host = request.url?.host ?? "the server"
        let code = (error as NSError).code
        if (error as NSError).domain == NSURLErrorDomain {
            if code == NSURLErrorTimedOut {
                return SyncError(
                    .timedOut, reason: "\(host) did not answer within \(Int(request.timeoutInterval.rounded())) s")
            }
            if code == NSURLErrorCancelled { return CancellationError() }
        }
        return SyncError(.unreachable, reason: "cannot reach \(host): \(error.localizedDescription)")
    }

    /// The server's refusal by class: 410 is an expired cursor, 400 bad input (its code
    /// standing for the field); the others are ``SyncError``s.
    private static func error(status: Int, body: Data, user: String, route: String) -> any Error {
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
        let reason = "the server answered \(status) \(code): \(message)"
        switch status {
        case 410 where code == "cursor_expired": return MnemoError.cursorExpired(namespace: user)
        case 400: return MnemoError.invalidInput(field: code, reason: message)
        case 401: return SyncError(.unauthorized, reason: reason, status: status)
        case 403: return SyncError(.forbidden, reason: reason, status: status)
        case 409 where SyncError.Kind(rawValue: code) != nil:
            return SyncError(SyncError.Kind(rawValue: code)!, reason: message, status: status)
        case 404, 405, 410, 415:
            return SyncError(
                .incompatibleServer, reason: "\(reason) (the server has no sync route \(route))", status: status)
        case 429, 500...599: return SyncError(.serverError, reason: reason, status: status)
        default: return SyncError(.incompatibleServer, reason: reason, status: status)
        }
    }
}

/// The data task of one exchange, for the cancellation handler, which may run first.
private final class TaskBox: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var isCancelled = false

    func set(_ task: URLSessionDataTask) {
        lock.lock()
        self.task = task
        let cancelled = isCancelled
        lock.unlock()
        if cancelled { task.cancel() }
    }

    func cancel() {
        lock.lock()
        isCancelled = true
        let task = task
        lock.unlock()
        task?.cancel()
    }
}
