import Foundation
import Mnemo
import MnemoPostgres
import MnemoTestSupport
import Testing

/// Sync through `mnemo serve` nodes on a PostgreSQL store: two devices, each syncing through its
/// own node of the same store, end with the same facts as the store, merged, kept as conflicts,
/// deleted and erased as on a server with a SQLite file.
@Suite("Sync through nodes of a PostgreSQL store", .enabled(if: TestStore.isAvailable, TestStore.skipNote))
struct SyncNodesTests {
    /// The servers run without a model (the hashing embedder): the devices embed with it too, so
    /// the nodes ship their vectors, and its spelling overlap makes the pairs below a paraphrase
    /// (merged) and a contradiction (kept as a conflict).
    static let embedder = HashingEmbedder()

    static func secret() -> String { "Diagnosed with condition \(UUID().uuidString)" }

    /// A device's facts by uid, as every replica must hold them (local ids and times aside).
    static func state(of kb: KnowledgeBase) async throws -> [String: String] {
        var state: [String: String] = [:]
        for fact in try await kb.snapshot().facts {
            state[fact.uid] = [
                fact.content, fact.topicPath, fact.importance.rawValue, String(fact.isActive),
                String(fact.mentionCount), fact.sources.sorted().joined(separator: "+"),
            ].joined(separator: " | ")
        }
        return state
    }

    /// Two nodes of a fresh store, each with its copies in a folder of the test's.
    struct Cluster {
        let location: PostgresLocation
        let nodes: [ServerProcess]
        let copies: [URL]
        let token = "tok-sync"

        init(user: String) async throws {
            location = try await TestStore.freshDatabase()
            let base = try #require(TestStore.url)
            let slash = try #require(base.lastIndex(of: "/"))
            let url = base[..<slash] + "/" + location.database
            let folder = try TestKnowledgeBase.temporaryFolder()
            let tokens = folder.appendingPathComponent("tokens.txt")
            try "\(token) \(user)\n".write(to: tokens, atomically: true, encoding: .utf8)
            copies = [folder.appendingPathComponent("copies-1"), folder.appendingPathComponent("copies-2")]
            nodes = try copies.map {
                try ServerProcess([
                    "--db", String(url), "--storage-timeout", "60", "--auth", "tokens", "--tokens-file", tokens.path,
                    "--copies-dir", $0.path,
                ])
            }
            for node in nodes { try await node.waitUntilListening() }
        }

        func transport(_ node: Int, user: String) -> URLSessionSyncTransport {
            URLSessionSyncTransport(
                server: URL(string: "http://127.0.0.1:\(nodes[node].port)")!, user: user, token: token)
        }

        /// A device's way to the store, starting on node `first`: see ``BothNodes``.
        func bothNodes(first: Int, user: String) -> BothNodes {
            BothNodes(nodes: [transport(first, user: user), transport(1 - first, user: user)])
        }

        func stop() { for node in nodes { node.stop() } }
    }

    @Test func twoDevicesConvergeThroughTwoNodesOfOneStore() async throws {
        let user = TestStore.namespace("sync")
        let cluster = try await Cluster(user: user)
        defer { cluster.stop() }
        let paths = [try TestKnowledgeBase.temporaryPath(), try TestKnowledgeBase.temporaryPath()]
        let devices = try paths.map { try KnowledgeBase(path: $0, namespace: user, embedder: Self.embedder) }
        let transports = [cluster.bothNodes(first: 0, user: user), cluster.bothNodes(first: 1, user: user)]
        @discardableResult
        func sync(_ device: Int) async throws -> SyncReport { try await devices[device].sync(with: transports[device]) }

        let (phone, tablet) = (devices[0], devices[1])
        let secret = Self.secret()
        let braga = try await phone.addFact(NewFact(content: "I live in Braga", topicPath: "Home")).fact
        try await phone.addFact(NewFact(content: "My dog is called Rex and he is three", topicPath: "Pets"))
        try await phone.addFact(NewFact(content: "My sister lives in Lisbon", topicPath: "Family"))
        let erased = try await phone.addFact(NewFact(content: secret, topicPath: "Health")).fact
        let cello = try await phone.addFact(NewFact(content: "I play the cello", topicPath: "Music")).fact
        try await tablet.addFact(NewFact(content: "My dog is called Rex, he is three years old", topicPath: "Pets"))
        try await tablet.addFact(NewFact(content: "My sister lives in Porto", topicPath: "Family"))
        try await tablet.addFact(NewFact(content: "I live in Braga.", topicPath: "Home", sources: ["tablet"]))
        #expect(try await sync(0).pushed == 5)
        let second = try await sync(1)
        #expect(second.merged == 2, "the paraphrase and the same fact are the store's facts: \(second)")
        try await sync(0)
        for device in devices {
            let conflicts = try await device.conflicts()
            #expect(
                conflicts.map { Set([$0.older.content, $0.newer.content]) } == [
                    ["My sister lives in Lisbon", "My sister lives in Porto"]
                ])
        }

        #expect(!(try await StoreErasureTests.DatabaseFiles(location: cluster.location).holding(secret)).isEmpty)
        #expect(!NodeCopiesErasureTests.traces(of: secret, in: cluster.copies[1]).isEmpty, "the scans find it")

        // Offline: the tablet deletes a fact, edits the secret and renames a topic; the phone
        // erases the secret, and deletes a fact that it then brings back (undo).
        let onTablet = try await tablet.snapshot().facts
        try await tablet.deleteFact(id: try #require(onTablet.first { $0.uid == braga.uid }).id)
        try await tablet.updateFact(
            id: try #require(onTablet.first { $0.uid == erased.uid }).id, FactUpdate(importance: .high))
        try await tablet.renameTopic("Pets", to: "Animals")
        try await phone.eraseFacts(ids: [erased.id])
        try await phone.deleteFact(id: cello.id)
        try await phone.undo()
        try await sync(0)
        let tabletSync = try await sync(1)
        #expect(tabletSync.gone == 1, "the edit of an erased fact is answered gone: \(tabletSync)")
        #expect(tabletSync.erased == 1)
        // Both at once, through both nodes: the store takes the namespace's writes one at a time.
        try await tablet.addFact(NewFact(content: "I run on Sundays", topicPath: "Sport"))
        try await phone.addFact(NewFact(content: "I swim on Mondays", topicPath: "Sport"))
        async let phoneDone = sync(0)
        async let tabletDone = sync(1)
        _ = try await (phoneDone, tabletDone)
        for device in [0, 1, 0] { try await sync(device) }

        let node = try await TestStore.node(embedder: Self.embedder, location: cluster.location)
        let store = try await Self.state(of: node.knowledgeBase(namespace: user))
        #expect(try await Self.state(of: phone) == store)
        #expect(try await Self.state(of: tablet) == store)
        #expect(
            Set(store.values.map { $0.components(separatedBy: " | ").prefix(2).joined(separator: ": ") }) == [
                "My dog is called Rex and he is three: Animals", "My sister lives in Lisbon: Family",
                "My sister lives in Porto: Family", "I play the cello: Music", "I run on Sundays: Sport",
                "I swim on Mondays: Sport",
            ])
        #expect(try await node.knowledgeBase(namespace: user).conflicts().count == 1)
        await node.close()

        for (index, path) in paths.enumerated() {
            #expect(try FileTraces(databaseAt: path).found([secret]) == [], "device \(index)")
        }
        for (index, folder) in cluster.copies.enumerated() {
            #expect(NodeCopiesErasureTests.traces(of: secret, in: folder) == [], "node \(index)'s copies")
        }
        let storeFiles = try await StoreErasureTests.DatabaseFiles(location: cluster.location).holding(secret)
        #expect(storeFiles == [], "the store's table files")
    }
}

/// A device behind a load balancer: each push goes to one node and is sent again to the other,
/// which must answer alike (the receipts are the store's, not a node's), and pulls go to either
/// node in turn (the cursor and the server's identity are the store's).
final class BothNodes: SyncTransport, @unchecked Sendable {
    let nodes: [URLSessionSyncTransport]
    private let lock = NSLock()
    private var pulls = 0

    init(nodes: [URLSessionSyncTransport]) { self.nodes = nodes }

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        let response = try await nodes[0].push(request)
        let again = try await nodes[1].push(request)
        #expect(again == response, "a push replayed on the other node gets the same answers")
        return response
    }

    func pull(after cursor: String, server: String, limit: Int, model: EmbeddingModelIdentity?) async throws
        -> SyncPullResponse
    {
        let turn = lock.withLock {
            pulls += 1
            return pulls % 2
        }
        return try await nodes[turn].pull(after: cursor, server: server, limit: limit, model: model)
    }

    func snapshot(model: EmbeddingModelIdentity?) async throws -> SyncSnapshotResponse {
        try await nodes[0].snapshot(model: model)
    }
}
