import Foundation
import Mnemo
import MnemoPostgres
import MnemoTestSupport
import Testing

/// An erasure leaves no trace in the copies other nodes keep on disk: open, evicted, kept across
/// a restart, or left behind by a node that was killed.
@Suite("Erasure in every node's copies", .enabled(if: TestStore.isAvailable, TestStore.skipNote))
struct NodeCopiesErasureTests {
    static let embedder = SeededEmbedder(dimension: 32)

    static func fact(_ content: String) -> NewFact {
        NewFact(content: content, topicPath: "Health", type: .fact)
    }

    static func secret() -> String { "Diagnosed with condition \(UUID().uuidString)" }

    /// The files below `folder` whose bytes hold `text`.
    static func traces(of text: String, in folder: URL) -> [String] {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects ?? []
        return files.compactMap { $0 as? URL }.filter { file in
            (try? Data(contentsOf: file))?.range(of: Data(text.utf8)) != nil
        }.map(\.lastPathComponent)
    }

    static func node(copiesIn folder: URL, vectorCacheBytes: Int? = nil, name: String = "mnemo") async throws
        -> PostgresMemory
    {
        var options = TestStore.options
        options.copiesDirectory = folder
        options.vectorCacheBytes = vectorCacheBytes
        options.applicationName = name
        return try await TestStore.node(embedder: embedder, options: options)
    }

    /// Adds the secret and another fact through `writer`, and returns the secret's id.
    static func storeSecret(_ secret: String, namespace: String, through writer: PostgresMemory) async throws -> Int64 {
        let kb = try await writer.knowledgeBase(namespace: namespace)
        let id = try await kb.addFact(fact(secret)).fact.id
        try await kb.addFact(fact("Walks the dog daily"))
        return id
    }

    @Test func anOpenCopyOnAnotherNode() async throws {
        let folder = try TestKnowledgeBase.temporaryFolder()
        let (writer, reader) = (
            try await TestStore.node(embedder: Self.embedder), try await Self.node(copiesIn: folder)
        )
        let (namespace, secret) = (TestStore.namespace(), Self.secret())
        let id = try await Self.storeSecret(secret, namespace: namespace, through: writer)
        #expect(try await reader.knowledgeBase(namespace: namespace).stats().facts == 2)
        #expect(!Self.traces(of: secret, in: folder).isEmpty)

        try await writer.knowledgeBase(namespace: namespace).eraseFacts(ids: [id])
        #expect(try await reader.knowledgeBase(namespace: namespace).facts().map(\.content) == ["Walks the dog daily"])
        #expect(Self.traces(of: secret, in: folder) == [])
        await writer.close()
        await reader.close()
    }

    /// A writer, and a reader whose copy of a namespace holding a secret is closed, on disk.
    struct ClosedCopy {
        var writer: PostgresMemory
        var reader: PostgresMemory
        var folder: URL
        var namespace: String
        var secret: String
        var id: Int64

        /// The reader's connections are named `name` in `pg_stat_activity`.
        init(readerName name: String = "mnemo") async throws {
            folder = try TestKnowledgeBase.temporaryFolder()
            writer = try await TestStore.node(embedder: NodeCopiesErasureTests.embedder)
            reader = try await NodeCopiesErasureTests.node(copiesIn: folder, vectorCacheBytes: 32 * 4 * 3, name: name)
            (namespace, secret) = (TestStore.namespace(), NodeCopiesErasureTests.secret())
            id = try await NodeCopiesErasureTests.storeSecret(secret, namespace: namespace, through: writer)
            #expect(try await reader.knowledgeBase(namespace: namespace).stats().facts == 2)
            // Two more vectors in another namespace pass the cap of three: the first copy is closed.
            _ = try await NodeCopiesErasureTests.storeSecret(
                NodeCopiesErasureTests.secret(), namespace: TestStore.namespace(), through: reader)
            #expect(await reader.health().namespacesHeld == 1)
            #expect(!NodeCopiesErasureTests.traces(of: secret, in: folder).isEmpty)
        }

        func erase() async throws {
            try await writer.knowledgeBase(namespace: namespace).eraseFacts(ids: [id])
        }

        /// The files that hold the secret once they no longer do, or after 30 seconds.
        func traces() async throws -> [String] {
            let deadline = ContinuousClock.now + .seconds(30)
            while !NodeCopiesErasureTests.traces(of: secret, in: folder).isEmpty, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            return NodeCopiesErasureTests.traces(of: secret, in: folder)
        }

        func close() async {
            await writer.close()
            await reader.close()
        }
    }

    @Test func aClosedCopyIsDroppedOnTheErasuresNotification() async throws {
        let copy = try await ClosedCopy()
        try await copy.erase()
        // Nothing asks the reader for the namespace: the change feed tells it.
        #expect(try await copy.traces() == [])
        let kb = try await copy.reader.knowledgeBase(namespace: copy.namespace)
        #expect(try await kb.facts().map(\.content) == ["Walks the dog daily"])
        await copy.close()
    }

    @Test func aClosedCopyWhoseNotificationWasMissedIsDroppedWhenTheFeedComesBack() async throws {
        let name = "mnemo-reader-\(UUID().uuidString.prefix(8))"
        let copy = try await ClosedCopy(readerName: name)
        // The reader's change feed is cut, and the erasure commits before it reconnects (half a
        // second later): its notification never reaches the reader.
        try await TestStore.withConnection { connection in
            try await connection.query(
                """
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE application_name = \(name) AND query LIKE 'LISTEN%'
                """, logger: TestStore.logger)
        }
        try await copy.erase()
        #expect(try await copy.traces() == [])
        await copy.close()
    }

    @Test func aCopyKeptAcrossARestart() async throws {
        let folder = try TestKnowledgeBase.temporaryFolder()
        let writer = try await TestStore.node(embedder: Self.embedder)
        let (namespace, secret) = (TestStore.namespace(), Self.secret())
        let id = try await Self.storeSecret(secret, namespace: namespace, through: writer)
        let before = try await Self.node(copiesIn: folder)
        #expect(try await before.knowledgeBase(namespace: namespace).stats().facts == 2)
        await before.close()
        #expect(!Self.traces(of: secret, in: folder).isEmpty)

        // Erased while the node is down: it finds out when it starts, before any request.
        try await writer.knowledgeBase(namespace: namespace).eraseFacts(ids: [id])
        let after = try await Self.node(copiesIn: folder)
        #expect(Self.traces(of: secret, in: folder) == [])
        #expect(try await after.knowledgeBase(namespace: namespace).facts().map(\.content) == ["Walks the dog daily"])
        await writer.close()
        await after.close()
    }

    @Test func twoNodesCannotShareAFolderOfCopies() async throws {
        let folder = try TestKnowledgeBase.temporaryFolder()
        let first = try await Self.node(copiesIn: folder)
        await #expect(throws: MnemoError.self) { try await Self.node(copiesIn: folder) }
        await first.close()
        // Once the first has stopped, the folder is free again.
        let second = try await Self.node(copiesIn: folder)
        await second.close()
    }

    @Test func theCopiesOfAKilledNodeAreRemovedByTheNextNodeToStart() async throws {
        let url = try #require(TestStore.url)
        let temporary = try TestKnowledgeBase.temporaryFolder()
        let environment = ["TMPDIR": temporary.path]
        let (user, secret) = (TestStore.namespace("user"), Self.secret())
        let killed = try ServerProcess(["--db", url, "--storage-timeout", "60"], environment: environment)
        try await killed.waitUntilListening()
        let body =
            #"{"user_id": "\#(user)", "conversation_id": "c1", "extracted": [{"content": "\#(secret)", "category": "health"}]}"#
        let (status, _) = try await killed.request("/v1/facts/extract", method: "POST", body: body)
        #expect(status == 201)
        killed.stop(signal: SIGKILL)
        #expect(!Self.traces(of: secret, in: temporary).isEmpty)

        let next = try ServerProcess(["--db", url, "--storage-timeout", "60"], environment: environment)
        try await next.waitUntilListening()
        let listing = { (try? FileManager.default.subpathsOfDirectory(atPath: temporary.path)) ?? [] }
        #expect(Self.traces(of: secret, in: temporary) == [], "\(listing())")
        let stopped = next.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(listing().filter { $0.hasPrefix("mnemo-copies") } == [], "\(stopped.stderr)")
    }
}
