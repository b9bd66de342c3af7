import Foundation
import MCP
import Mnemo

/// The topic tree's subscribers: `resources/subscribe` on ``MnemoMCPServer/topicTreeURI`` asks
/// for `notifications/resources/updated` whenever the memory changes (a fact added, moved or
/// removed changes the tree's counts; a topic event changes its shape), from this server or any
/// other writer of the same memory, as the change feed reports it.
final class ResourceSubscriptions: Sendable {
    private let knowledgeBase: KnowledgeBase
    private let subscribed = Locked<Set<String>>([])
    private let follower = Locked<Task<Void, Never>?>(nil)

    init(knowledgeBase: KnowledgeBase) {
        self.knowledgeBase = knowledgeBase
    }

    deinit { follower.withLock { $0?.cancel() } }

    func subscribe(_ uri: String, notifying server: Server) throws {
        guard uri == MnemoMCPServer.topicTreeURI else {
            throw MCPError.invalidParams("unknown resource \(uri); the memory offers \(MnemoMCPServer.topicTreeURI)")
        }
        subscribed.withLock { _ = $0.insert(uri) }
        follower.withLock { task in
            guard task == nil else { return }
            let changes = knowledgeBase.changeStream()
            task = Task { [weak self] in
                do {
                    for try await _ in changes {
                        guard let uris = self?.subscribed.withLock({ $0 }) else { return }
                        for uri in uris.sorted() {
                            try await server.notify(ResourceUpdatedNotification.message(.init(uri: uri)))
                        }
                    }
                } catch {}
            }
        }
    }

    func unsubscribe(_ uri: String) {
        subscribed.withLock { _ = $0.remove(uri) }
    }
}
