import Foundation

/// How a device reaches its server: the three requests of sync.
///
/// ``URLSessionSyncTransport`` speaks to `mnemo serve`; ``InProcessSyncTransport`` calls a
/// ``KnowledgeBase`` in the same process. A transport reports the server's refusals as
/// ``MnemoError``s: ``MnemoError/cursorExpired(namespace:)`` when the cursor is older than the
/// server's feed window, ``MnemoError/invalidInput(field:reason:)`` for a request it refused.
public protocol SyncTransport: Sendable {
    /// Sends a device's operations; the answers come in their order.
    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse

    /// The server's changes after `cursor`, which `server` made.
    /// - Parameter model: the device's embedding model, so that the server ships its vectors
    ///   when they are of the same model.
    func pull(after cursor: String, server: String, limit: Int, model: EmbeddingModelIdentity?) async throws
        -> SyncPullResponse

    /// The whole namespace, for a first sync or after the cursor expired.
    func snapshot(model: EmbeddingModelIdentity?) async throws -> SyncSnapshotResponse
}

/// A transport to a ``KnowledgeBase`` of the same process: a server's namespace opened as a
/// library, as tests and tools use it.
public struct InProcessSyncTransport: SyncTransport {
    /// The server's knowledge base, in the namespace the device syncs.
    public let server: KnowledgeBase

    public init(server: KnowledgeBase) {
        self.server = server
    }

    public func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        try await server.acceptSyncPush(request)
    }

    public func pull(after cursor: String, server identity: String, limit: Int, model: EmbeddingModelIdentity?)
        async throws -> SyncPullResponse
    {
        try await server.syncChanges(after: cursor, server: identity, limit: limit, model: model)
    }

    public func snapshot(model: EmbeddingModelIdentity?) async throws -> SyncSnapshotResponse {
        try await server.syncSnapshot(model: model)
    }
}
