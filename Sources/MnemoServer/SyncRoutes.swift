import Foundation
import Hummingbird
import Mnemo

/// Sync for the caller's namespace (see the library's `KnowledgeBase.sync(with:options:progress:)`):
/// a device pushes its operations, pulls the changes after its cursor, and reads the whole
/// namespace on its first sync or when its cursor expired.
struct SyncRoutes {
    let tenancy: Tenancy

    /// The most changes one pull answers.
    static let maximumLimit = 1000

    func add(to router: Router<MnemoRequestContext>) {
        router.post("v1/users/:user_id/sync/push", use: push)
        router.get("v1/users/:user_id/sync/changes", use: changes)
        router.get("v1/users/:user_id/sync/snapshot", use: onThePool(snapshot))
    }

    /// `POST /v1/users/{user_id}/sync/push`: the device's operations, applied in one transaction,
    /// each answered (an answer is remembered by the operation's id: a replay gets it again).
    @Sendable func push(_ request: Request, context: MnemoRequestContext) async throws -> SyncPushResponse {
        let kb = try await tenancy.knowledgeBase(context, naming: context.parameters.get("user_id"))
        let body = try await request.decode(as: SyncPushRequest.self, context: context)
        guard body.namespace == kb.namespace else { throw APIError.forbidden(body.namespace) }
        return try await Self.answering { try await kb.acceptSyncPush(body) }
    }

    /// `GET /v1/users/{user_id}/sync/changes?since=&server=&limit=&model=&dimension=`: the
    /// changes after the cursor `since` that the server `server` gave, by uid; facts carry the
    /// server's vectors when `model` and `dimension` name its embedding model.
    @Sendable func changes(_ request: Request, context: MnemoRequestContext) async throws -> SyncPullResponse {
        let kb = try await tenancy.knowledgeBase(context, naming: context.parameters.get("user_id"))
        let query = QueryFields(request)
        guard let since = query.get("since"), let server = query.get("server") else {
            throw APIError.badRequest("missing_cursor", "since and server name the position to pull from")
        }
        let limit = try query.integer("limit", in: 1...Self.maximumLimit) ?? 500
        let model = try model(query)
        return try await Self.answering {
            try await kb.syncChanges(after: since, server: server, limit: limit, model: model)
        }
    }

    /// `GET /v1/users/{user_id}/sync/snapshot?model=&dimension=`: every fact, conflict and
    /// erased uid of the namespace, with the cursor to pull from.
    @Sendable func snapshot(_ request: Request, context: MnemoRequestContext) async throws -> SyncSnapshotResponse {
        let kb = try await tenancy.knowledgeBase(context, naming: context.parameters.get("user_id"))
        return try await kb.syncSnapshot(model: try model(QueryFields(request)))
    }

    /// A sync refusal as the API's: 409 with the class as its code (`other_server`).
    private static func answering<Answer>(_ body: () async throws -> Answer) async throws -> Answer {
        do {
            return try await body()
        } catch let error as SyncError {
            throw APIError(.conflict, error.kind.rawValue, error.reason)
        }
    }

    private func model(_ query: QueryFields) throws -> EmbeddingModelIdentity? {
        // Only a whole identity can match the server's model: without one the device embeds.
        let dimension = try query.integer("dimension", in: 1...65_536)
        guard let name = query.get("model"), let dimension else { return nil }
        return EmbeddingModelIdentity(name: name, dimension: dimension)
    }
}

extension SyncPushResponse: ResponseEncodable {}
extension SyncPullResponse: ResponseEncodable {}
extension SyncSnapshotResponse: ResponseEncodable {}
