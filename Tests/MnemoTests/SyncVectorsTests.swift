import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

/// The vectors of pulled facts: shipped by the server with the change that brings a wording,
/// or embedded on the device when it asks for none (``SyncOptions/embedsLocally``).
@Suite("Sync vectors")
struct SyncVectorsTests {
    static let server = SeededEmbedder(dimension: 32)
    /// The tablet's embedder has the server's identity but its own vector for every text of the
    /// tests, so a stored vector tells whether it was shipped or embedded on the tablet.
    static let tabletMark = SeededEmbedder.normalized([1] + Array(repeating: 0, count: 31))
    static let texts = ["I grow tomatoes", "I keep chickens", "I keep ducks", "I brew beer"]
    static let tablet = SeededEmbedder(
        dimension: 32, pinned: Dictionary(uniqueKeysWithValues: texts.map { ($0, tabletMark) }))

    /// What the server was asked and what it answered.
    final class Recording: SyncTransport, @unchecked Sendable {
        let base: InProcessSyncTransport
        private let lock = NSLock()
        private var recordedModels: [EmbeddingModelIdentity?] = []
        private var recordedFacts: [(event: ChangeEvent.Kind?, fact: SyncFact)] = []

        init(base: InProcessSyncTransport) { self.base = base }

        var models: [EmbeddingModelIdentity?] { lock.withLock { recordedModels } }
        /// The facts the pulls carried, with the change that carried each (`nil`: a snapshot).
        var facts: [(event: ChangeEvent.Kind?, fact: SyncFact)] { lock.withLock { recordedFacts } }

        func push(_ request: SyncPushRequest) async throws -> SyncPushResponse { try await base.push(request) }

        func pull(after cursor: String, server: String, limit: Int, model: EmbeddingModelIdentity?) async throws
            -> SyncPullResponse
        {
            let page = try await base.pull(after: cursor, server: server, limit: limit, model: model)
            lock.withLock {
                recordedModels.append(model)
                recordedFacts += page.changes.compactMap { change in change.fact.map { (change.event, $0) } }
            }
            return page
        }

        func snapshot(model: EmbeddingModelIdentity?) async throws -> SyncSnapshotResponse {
            let snapshot = try await base.snapshot(model: model)
            lock.withLock {
                recordedModels.append(model)
                recordedFacts += snapshot.facts.map { (nil, $0) }
            }
            return snapshot
        }
    }

    struct World {
        let server: KnowledgeBase
        let phone: KnowledgeBase
        let tablet: KnowledgeBase
        let recording: Recording

        init() throws {
            server = try KnowledgeBase(
                path: try TestKnowledgeBase.temporaryPath(), namespace: "alice", embedder: SyncVectorsTests.server)
            phone = try KnowledgeBase(
                path: try TestKnowledgeBase.temporaryPath(), namespace: "alice", embedder: SyncVectorsTests.server)
            tablet = try KnowledgeBase(
                path: try TestKnowledgeBase.temporaryPath(), namespace: "alice", embedder: SyncVectorsTests.tablet)
            recording = Recording(base: InProcessSyncTransport(server: server))
        }
    }

    /// The vector a knowledge base stores for the fact with this content.
    static func vector(in kb: KnowledgeBase, of content: String) async throws -> [Float]? {
        try await kb.writer.read { db in
            try Data.fetchOne(
                db, sql: "SELECT e.vector FROM fact_embedding e JOIN fact f ON f.id = e.fact_id WHERE f.content = ?",
                arguments: [content]
            ).flatMap { EmbeddingTable.decode($0, dimension: 32) }
        }
    }

    @Test func onlyAChangeThatBringsAWordingCarriesAVector() async throws {
        let world = try World()
        let tomatoes = try await world.phone.addFact(NewFact(content: "I grow tomatoes", topicPath: "Garden")).fact
        let chickens = try await world.phone.addFact(NewFact(content: "I keep chickens", topicPath: "Garden")).fact
        try await world.phone.sync(with: world.recording.base)
        try await world.tablet.sync(with: world.recording)
        for content in ["I grow tomatoes", "I keep chickens"] {
            #expect(try await Self.vector(in: world.tablet, of: content) == Self.server.vector(for: content))
        }

        // Two pushes, pulled by the tablet in one page.
        let before = world.recording.facts.count
        let beer = try await world.phone.addFact(NewFact(content: "I brew beer", topicPath: "Food")).fact
        try await world.phone.sync(with: world.recording.base)
        try await world.phone.updateFact(id: tomatoes.id, FactUpdate(importance: .high))
        try await world.phone.updateFact(id: chickens.id, FactUpdate(content: "I keep ducks"))
        try await world.phone.updateFact(id: beer.id, FactUpdate(importance: .low))
        try await world.phone.sync(with: world.recording.base)
        try await world.tablet.sync(with: world.recording)

        let pulled = world.recording.facts.dropFirst(before).map {
            "\($0.event?.rawValue ?? "snapshot") \($0.fact.content): \($0.fact.vector == nil ? "no vector" : "vector")"
        }
        #expect(
            pulled == [
                "fact_added I brew beer: vector", "fact_updated I grow tomatoes: no vector",
                "fact_updated I keep ducks: vector", "fact_updated I brew beer: no vector",
            ])
        // The tablet took the shipped vectors, the one of a later change's wording included.
        for content in ["I grow tomatoes", "I keep ducks", "I brew beer"] {
            #expect(
                try await Self.vector(in: world.tablet, of: content) == Self.server.vector(for: content), "\(content)")
        }
    }

    @Test func aDeviceThatEmbedsLocallyAsksForNoVectors() async throws {
        let world = try World()
        try await world.phone.addFact(NewFact(content: "I grow tomatoes", topicPath: "Garden"))
        try await world.phone.sync(with: world.recording.base)
        let local = SyncOptions(embedsLocally: true)
        try await world.tablet.sync(with: world.recording, options: local)
        try await world.phone.addFact(NewFact(content: "I brew beer", topicPath: "Food"))
        try await world.phone.sync(with: world.recording.base)
        try await world.tablet.sync(with: world.recording, options: local)

        #expect(world.recording.models.count == 2)
        #expect(world.recording.models.allSatisfy { $0 == nil }, "the tablet named no model")
        #expect(world.recording.facts.map(\.fact.content) == ["I grow tomatoes", "I brew beer"])
        #expect(world.recording.facts.allSatisfy { $0.fact.vector == nil })
        for content in ["I grow tomatoes", "I brew beer"] {
            #expect(try await Self.vector(in: world.tablet, of: content) == Self.tabletMark, "embedded on the tablet")
        }
    }
}
