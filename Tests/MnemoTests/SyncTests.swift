import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// Sync between device files and a server namespace, in process: what the server decides, what
/// every replica ends with, and what a bad push gets.
@Suite("Sync", .storesClosed)
struct SyncTests {
    static let secret = "My Quillaberry passcode is 8841"

    /// Vectors pinned so that pairs are a paraphrase (merged) or a contradiction (kept apart as
    /// a conflict), as the conflict tests pin them; other texts get nearly orthogonal vectors.
    static func embedder() -> SeededEmbedder {
        let pinned: [String: [Float]] = [
            "Rent is 850 euros a month": [0, 1, 0, 0],
            "Rent is €950 a month": [0, 0.95, 0.31225, 0],
            "Tom reports to me": [0, 0, 0, 1],
            "Tom is one of my direct reports": [0, 0, 0.3, 0.95394],
        ]
        return SeededEmbedder(dimension: 64, pinned: pinned.mapValues { $0 + Array(repeating: 0, count: 60) })
    }

    /// A server and devices, each a database file of its own.
    struct World {
        let server: KnowledgeBase
        let serverPath: String
        var devices: [KnowledgeBase] = []
        var devicePaths: [String] = []

        init(devices count: Int, namespace: String = "alice") throws {
            serverPath = try TestKnowledgeBase.temporaryPath()
            server = try KnowledgeBase(path: serverPath, namespace: namespace, embedder: SyncTests.embedder())
            for _ in 0..<count {
                let path = try TestKnowledgeBase.temporaryPath()
                devicePaths.append(path)
                devices.append(try KnowledgeBase(path: path, namespace: namespace, embedder: SyncTests.embedder()))
            }
        }

        var transport: InProcessSyncTransport { InProcessSyncTransport(server: server) }

        @discardableResult
        func sync(_ device: Int) async throws -> SyncReport {
            try await devices[device].sync(with: transport)
        }

        /// Every replica's facts, without local ids.
        func states() async throws -> [[SyncFact]] {
            var all: [[SyncFact]] = []
            for kb in [server] + devices { all.append(try await SyncTests.state(of: kb)) }
            return all
        }
    }

    static func state(of kb: KnowledgeBase) async throws -> [SyncFact] {
        try await kb.snapshot().facts.map { SyncFact($0) }.sorted { $0.uid < $1.uid }
    }

    @Test func theSameFactAddedOnTwoDevicesIsOneFactWithBothSources() async throws {
        let world = try World(devices: 2)
        try await world.devices[0].addFact(NewFact(content: "I live in Braga", topicPath: "Home", sources: ["phone"]))
        try await world.devices[1].addFact(NewFact(content: "I live in Braga.", topicPath: "Home", sources: ["tablet"]))
        try await world.devices[1].addFact(NewFact(content: "I have a cat", topicPath: "Pets"))
        let first = try await world.sync(0)
        #expect(first.pushed == 1)
        let second = try await world.sync(1)
        #expect(second.merged == 1, "the second device's copy is the server's fact")
        try await world.sync(0)

        let states = try await world.states()
        #expect(states.allSatisfy { $0 == states[0] }, "every replica holds the same facts")
        let braga = try #require(states[0].first { $0.content == "I live in Braga" })
        #expect(states[0].count == 2)
        #expect(Set(braga.sources) == ["phone", "tablet"])
        #expect(braga.mentionCount == 2)
    }

    @Test func aParaphraseIsMergedAndAContradictionIsAConflictEverywhere() async throws {
        let world = try World(devices: 2)
        try await world.devices[0].addFact(NewFact(content: "Tom reports to me", topicPath: "Work"))
        try await world.devices[0].addFact(NewFact(content: "Rent is 850 euros a month", topicPath: "Home"))
        try await world.devices[1].addFact(NewFact(content: "Tom is one of my direct reports", topicPath: "Work"))
        try await world.devices[1].addFact(NewFact(content: "Rent is €950 a month", topicPath: "Home"))
        try await world.sync(0)
        let report = try await world.sync(1)
        #expect(report.merged == 1)
        try await world.sync(0)

        let states = try await world.states()
        #expect(states.allSatisfy { $0 == states[0] })
        #expect(
            states[0].map(\.content).sorted() == [
                "Rent is 850 euros a month", "Rent is €950 a month", "Tom reports to me",
            ])
        for kb in [world.server] + world.devices {
            let conflicts = try await kb.conflicts()
            #expect(conflicts.count == 1)
            #expect(
                Set([conflicts.first?.older.content, conflicts.first?.newer.content]) == [
                    "Rent is 850 euros a month", "Rent is €950 a month",
                ])
        }
    }

    @Test func laterUpdatesWinFieldByFieldAndTheOtherIsInHistory() async throws {
        let world = try World(devices: 2)
        let fact = try await world.devices[0].addFact(NewFact(content: "I run on Sundays", topicPath: "Sport")).fact
        try await world.sync(0)
        try await world.sync(1)
        let onB = try #require(try await world.devices[1].snapshot().facts.first)
        #expect(onB.uid == fact.uid)
        try await world.devices[0].updateFact(id: fact.id, FactUpdate(importance: .high))
        try await world.devices[1].updateFact(id: onB.id, FactUpdate(importance: .low, topicPath: "Health"))
        try await world.sync(0)
        try await world.sync(1)
        try await world.sync(0)

        let states = try await world.states()
        #expect(states.allSatisfy { $0 == states[0] })
        #expect(states[0].first?.importance == .low, "the later update at the server wins")
        #expect(states[0].first?.topic == "Health", "a field only one device changed is kept")
        let server = try #require(try await world.server.snapshot().facts.first)
        let changes = try await world.server.history(ofFact: server.id).map(\.kind)
        #expect(changes.filter { $0 == .updated }.count == 2, "both edits are in the history")
    }

    @Test func aDeleteWinsOverAnUpdate() async throws {
        let world = try World(devices: 2)
        let fact = try await world.devices[0].addFact(NewFact(content: "I collect stamps", topicPath: "Hobbies")).fact
        try await world.sync(0)
        try await world.sync(1)
        let onB = try #require(try await world.devices[1].snapshot().facts.first)
        try await world.devices[0].deleteFact(id: fact.id)
        try await world.devices[1].updateFact(id: onB.id, FactUpdate(importance: .high))
        try await world.sync(0)
        let report = try await world.sync(1)
        #expect(report.refused == 1)
        try await world.sync(0)
        for state in try await world.states() { #expect(state.isEmpty) }
    }

    @Test func erasureWinsAndLeavesNoTraceInAnyFile() async throws {
        let world = try World(devices: 3)
        let fact = try await world.devices[0].addFact(NewFact(content: Self.secret, topicPath: "Secrets")).fact
        try await world.devices[0].addFact(NewFact(content: "I like green tea", topicPath: "Food"))
        for device in 0..<3 { try await world.sync(device) }
        // Offline: one device edits the fact, another deletes it, the first erases it.
        let onB = try #require(try await world.devices[1].snapshot().facts.first { $0.uid == fact.uid })
        try await world.devices[1].updateFact(id: onB.id, FactUpdate(importance: .high))
        let onC = try #require(try await world.devices[2].snapshot().facts.first { $0.uid == fact.uid })
        try await world.devices[2].deleteFact(id: onC.id)
        try await world.devices[0].eraseFacts(ids: [fact.id])
        try await world.sync(0)
        let b = try await world.sync(1)
        #expect(b.gone == 1, "the queued edit of an erased fact is answered gone")
        #expect(b.erased == 1)
        try await world.sync(2)
        for device in 0..<3 { try await world.sync(device) }

        let states = try await world.states()
        #expect(states.allSatisfy { $0.map(\.content) == ["I like green tea"] })
        for (index, path) in ([world.serverPath] + world.devicePaths).enumerated() {
            let found = try FileTraces(databaseAt: path).found([Self.secret])
            #expect(found == [], "replica \(index) (0 is the server)")
        }
    }

    @Test func anUndoIsPushedLikeAnyOperation() async throws {
        let world = try World(devices: 2)
        let fact = try await world.devices[0].addFact(NewFact(content: "I play the cello", topicPath: "Music")).fact
        try await world.sync(0)
        try await world.devices[0].deleteFact(id: fact.id)
        try await world.sync(0)
        try await world.sync(1)
        #expect(try await Self.state(of: world.devices[1]).isEmpty)
        try await world.devices[0].undo()
        try await world.sync(0)
        try await world.sync(1)
        let states = try await world.states()
        #expect(states.allSatisfy { $0.map(\.content) == ["I play the cello"] })
        #expect(states[0].first?.uid == fact.uid)
    }

    @Test func erasingAFactDeletedAndBroughtBackErasesEveryRowItHad() async throws {
        let world = try World(devices: 2)
        let fact = try await world.devices[0].addFact(NewFact(content: Self.secret, topicPath: "Codes")).fact
        try await world.sync(0)
        try await world.sync(1)
        try await world.devices[0].deleteFact(id: fact.id)
        try await world.sync(0)
        try await world.sync(1)
        // The undo brings the fact back on every replica as a new row under the same uid; the
        // deleted row's history still holds the content.
        try await world.devices[0].undo()
        try await world.sync(0)
        try await world.sync(1)
        let onB = try #require(try await world.devices[1].snapshot().facts.first { $0.uid == fact.uid })
        try await world.devices[1].eraseFacts(ids: [onB.id])
        for device in [1, 0, 1] { try await world.sync(device) }

        #expect(try await world.states().allSatisfy(\.isEmpty))
        for (index, path) in ([world.serverPath] + world.devicePaths).enumerated() {
            let found = try FileTraces(databaseAt: path).found([Self.secret])
            #expect(found == [], "replica \(index) (0 is the server)")
        }
    }

    @Test func aMentionPushedWithAnErasureReachesTheOtherDevices() async throws {
        let world = try World(devices: 2)
        let kept = try await world.devices[0].addFact(NewFact(content: "I keep bees", topicPath: "Hobbies")).fact
        let erased = try await world.devices[0].addFact(NewFact(content: Self.secret, topicPath: "Codes")).fact
        try await world.sync(0)
        try await world.sync(1)
        // One push: the erasure frees the server's newest history rows, then the mention is
        // recorded in the same transaction.
        try await world.devices[0].eraseFacts(ids: [erased.id])
        try await world.devices[0].addFact(NewFact(content: "I keep bees", topicPath: "Hobbies", sources: ["hive"]))
        try await world.sync(0)
        try await world.sync(1)

        let states = try await world.states()
        #expect(states.allSatisfy { $0 == states[0] }, "every replica holds the same facts")
        #expect(states[1].first { $0.uid == kept.uid }?.mentionCount == 2)
        #expect(states[2].first { $0.uid == kept.uid }?.mentionCount == 2, "the other device pulled the mention")
    }

    @Test func aTopicMergeAndARenameReachEveryReplica() async throws {
        let world = try World(devices: 2)
        try await world.devices[0].addFact(NewFact(content: "I run on Sundays", topicPath: "Running"))
        try await world.sync(0)
        try await world.sync(1)
        // Offline: the tablet adds to the topic the phone merges away, the phone renames another.
        try await world.devices[1].addFact(NewFact(content: "I ran a marathon", topicPath: "Running"))
        try await world.devices[0].addFact(NewFact(content: "I swim", topicPath: "Pool"))
        try await world.devices[0].mergeTopics(["Running"], into: "Sport")
        try await world.devices[0].renameTopic("Pool", to: "Swimming")
        try await world.sync(1)
        // The add carries its topic as it is now ("Swimming"): the rename then finds no "Pool".
        let report = try await world.sync(0)
        #expect(report.pushed == 2 && report.refused == 1)
        try await world.sync(1)

        let states = try await world.states()
        #expect(states.allSatisfy { $0 == states[0] }, "every replica holds the same facts")
        #expect(
            Set(states[0].map { "\($0.topic): \($0.content)" }) == [
                "Sport: I run on Sundays", "Sport: I ran a marathon", "Swimming: I swim",
            ], "the tablet's fact, added offline to the merged topic, is merged too")
        #expect(try await world.devices[1].topic(at: "Running") == nil, "the emptied topic is gone on the tablet")
    }

    @Test func aDeviceWhoseCursorExpiredReadsTheSnapshotAndKeepsItsOwnOperations() async throws {
        let world = try World(devices: 2)
        let kept = try await world.devices[0].addFact(NewFact(content: "I speak Dutch", topicPath: "Languages")).fact
        let dropped = try await world.devices[0].addFact(NewFact(content: "I own a van", topicPath: "Things")).fact
        try await world.sync(0)
        try await world.sync(1)
        // Away: its own edit waits while the server deletes a fact and forgets its events.
        let onB = try #require(try await world.devices[1].snapshot().facts.first { $0.uid == kept.uid })
        try await world.devices[1].updateFact(id: onB.id, FactUpdate(importance: .high))
        try await world.devices[0].deleteFact(id: dropped.id)
        try await world.sync(0)
        try await world.server.addFact(NewFact(content: "I moved to Ghent", topicPath: "Home"))
        #expect(try await world.server.pruneChanges(olderThan: Date().addingTimeInterval(60), keeping: 0) > 0)

        let report = try await world.sync(1)
        #expect(report.replacedFromSnapshot)
        #expect(report.pushed == 1)
        try await world.sync(0)
        let states = try await world.states()
        #expect(states.allSatisfy { $0 == states[0] })
        #expect(Set(states[0].map(\.content)) == ["I speak Dutch", "I moved to Ghent"])
        #expect(states[0].first { $0.uid == kept.uid }?.importance == .high)
    }

    @Test func pushesReplayedWithLostAnswersChangeNothingTwice() async throws {
        let world = try World(devices: 2)
        let flaky = FlakyTransport(base: world.transport, seed: 7)
        for round in 0..<6 {
            try await world.devices[round % 2].addFact(
                NewFact(content: "Fact number \(round / 2) of the list", topicPath: "Lists", sources: ["r\(round)"]))
            for device in 0..<2 {
                // A sync whose answer was lost is simply run again.
                for _ in 0..<5 {
                    do {
                        try await world.devices[device].sync(with: flaky)
                        break
                    } catch is FlakyTransport.Lost {}
                }
            }
        }
        for device in 0..<2 { try await world.sync(device) }
        #expect(flaky.lost > 0, "the transport dropped answers")
        let states = try await world.states()
        #expect(states.allSatisfy { $0 == states[0] })
        #expect(states[0].count == 3, "no fact was stored twice")
        #expect(states[0].allSatisfy { $0.mentionCount == 2 }, "each device's add counted once")
    }

    @Test func aPushNamingAnotherNamespaceOrMalformedChangesNothing() async throws {
        let world = try World(devices: 1)
        let uid = StableID.random()
        let state = SyncFact(
            Fact(
                id: 1, uid: uid, namespace: "alice", topicID: 1, topicPath: "Home", content: "I live in Porto",
                type: .fact, importance: .medium, confidence: 1, isActive: true, sources: [], mentionCount: 1,
                createdAt: Date(), updatedAt: Date()))
        let add = SyncOperation(id: "op-1", kind: .add, uid: uid, fact: state)
        await #expect(
            throws: MnemoError.invalidInput(
                field: "namespace", reason: "the push names namespace \"bob\", not the caller's")
        ) {
            try await world.server.acceptSyncPush(SyncPushRequest(device: "d", namespace: "bob", operations: [add]))
        }
        let badUpdate = SyncOperation(id: "op-2", kind: .update, uid: uid, fact: state, fields: ["colour"])
        await #expect(throws: MnemoError.self) {
            try await world.server.acceptSyncPush(
                SyncPushRequest(device: "d", namespace: "alice", operations: [add, badUpdate]))
        }
        var empty = state
        empty.content = "  "
        let blank = SyncOperation(id: "op-3", kind: .add, uid: uid, fact: empty)
        do {
            _ = try await world.server.acceptSyncPush(
                SyncPushRequest(device: "d", namespace: "alice", operations: [blank]))
            Issue.record("a blank content was taken")
        } catch let MnemoError.invalidInput(field, _) {
            #expect(field == "operations[0].fact.content")
        }
        let notUUID = SyncOperation(id: "op-4", kind: .delete, uid: "42")
        do {
            _ = try await world.server.acceptSyncPush(
                SyncPushRequest(device: "d", namespace: "alice", operations: [notUUID]))
            Issue.record("a uid that is not one was taken")
        } catch let MnemoError.invalidInput(field, _) {
            #expect(field == "operations[0].uid")
        }
        #expect(try await world.server.stats().facts == 0, "nothing of a refused push was applied")

        let unknown = SyncOperation(
            id: "op-5", kind: .update, uid: StableID.random(), fact: nil, fields: ["importance"])
        var unknownWithState = unknown
        var other = state
        other.uid = unknown.uid
        unknownWithState.fact = other
        let answers = try await world.server.acceptSyncPush(
            SyncPushRequest(device: "d", namespace: "alice", operations: [unknownWithState]))
        #expect(answers.answers.map(\.outcome) == [.unknown])
    }

    @Test func aCursorOfAnotherServerOrNamespaceIsRefused() async throws {
        let world = try World(devices: 1)
        try await world.devices[0].addFact(NewFact(content: "I read novels", topicPath: "Books"))
        try await world.sync(0)
        let snapshot = try await world.server.syncSnapshot()
        let refusal = await #expect(throws: SyncError.self) {
            try await world.server.syncChanges(after: snapshot.cursor, server: StableID.random())
        }
        #expect(refusal?.kind == .otherServer)
        let bob = try world.server.inNamespace("bob")
        let bobs = try await bob.syncSnapshot()
        do {
            _ = try await world.server.syncChanges(after: bobs.cursor, server: snapshot.server)
            Issue.record("a cursor of another namespace was taken")
        } catch let MnemoError.invalidInput(field, _) {
            #expect(field == "cursor")
        }
    }

    @Test func localWritesWaitInTheOutboxUntilPushed() async throws {
        let world = try World(devices: 1)
        try await world.devices[0].addFact(NewFact(content: "I sleep at 11", topicPath: "Habits"))
        #expect(try await world.devices[0].syncStatus().isLinked == false)
        try await world.sync(0)
        let fact = try #require(try await world.devices[0].snapshot().facts.first)
        try await world.devices[0].updateFact(id: fact.id, FactUpdate(importance: .high))
        try await world.devices[0].deactivateFact(id: fact.id)
        let status = try await world.devices[0].syncStatus()
        #expect(status.isLinked)
        #expect(status.waiting == 2)
        #expect(status.lastSync != nil)
        // A reopened file keeps what waits (the outbox is written with the change).
        let reopened = try KnowledgeBase(path: world.devicePaths[0], namespace: "alice", embedder: Self.embedder())
        #expect(try await reopened.syncStatus().waiting == 2)
        let report = try await reopened.sync(with: world.transport)
        #expect(report.pushed == 2)
        #expect(report.pulled == 2, "the server's own events of the two changes come back, and change nothing")
        #expect(try await reopened.syncStatus().waiting == 0)
        let server = try #require(try await world.server.snapshot().facts.first)
        #expect(server.importance == .high && !server.isActive)
    }
}

/// A transport that loses some answers after the server applied the push, as a network that
/// drops a connection does.
final class FlakyTransport: SyncTransport, @unchecked Sendable {
    struct Lost: Error {}

    let base: InProcessSyncTransport
    private let lock = NSLock()
    private var state: UInt64
    private(set) var lost = 0

    init(base: InProcessSyncTransport, seed: UInt64) {
        self.base = base
        self.state = seed
    }

    /// Whether to lose this answer: 3 times in 10.
    private func losing() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let lose = (state >> 33) % 10 < 3
        if lose { lost += 1 }
        return lose
    }

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        let response = try await base.push(request)
        if losing() { throw Lost() }
        // Every push arrives twice: the second must change nothing.
        let again = try await base.push(request)
        #expect(again == response)
        return response
    }

    func pull(after cursor: String, server: String, limit: Int, model: EmbeddingModelIdentity?) async throws
        -> SyncPullResponse
    {
        let response = try await base.pull(after: cursor, server: server, limit: limit, model: model)
        if losing() { throw Lost() }
        return response
    }

    func snapshot(model: EmbeddingModelIdentity?) async throws -> SyncSnapshotResponse {
        try await base.snapshot(model: model)
    }
}
