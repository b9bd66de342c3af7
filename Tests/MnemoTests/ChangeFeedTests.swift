import Foundation
import MnemoEvaluation
import MnemoExamples
import MnemoTestSupport
import Testing

@testable import Mnemo

/// The change feed: what each write reports, in order and by transaction; cursors; pruning;
/// following commits of other instances and processes; and no erased content in any event.
@Suite("Change feed")
struct ChangeFeedTests {
    /// A follower's copy of the memory, built from events alone.
    struct Replica {
        var facts: [Int64: Fact] = [:]

        mutating func apply(_ events: [ChangeEvent]) {
            for event in events {
                if event.kind == .namespaceErased {
                    facts = [:]
                    continue
                }
                guard let id = event.factID else { continue }
                if let fact = event.fact { facts[id] = fact } else { facts[id] = nil }
                // A merge also changes the survivor, which carries its own state.
            }
        }
    }

    static func allChanges(_ kb: KnowledgeBase, after cursor: ChangeCursor? = nil) async throws -> [ChangeEvent] {
        var events: [ChangeEvent] = []
        var cursor = cursor
        while true {
            let page = try await kb.changes(after: cursor, limit: 7)
            events += page.events
            cursor = page.next
            if !page.hasMore { return events }
        }
    }

    static func snapshotFacts(_ kb: KnowledgeBase) async throws -> [Int64: Fact] {
        Dictionary(uniqueKeysWithValues: try await kb.snapshot().facts.map { ($0.id, $0) })
    }

    /// The cursor of now is one statement, without the `BEGIN` and `COMMIT` of a read
    /// transaction around it.
    @Test func theCursorIsReadInOneStatement() async throws {
        let kb = try TestKnowledgeBase.empty()
        try await kb.addFact(NewFact(content: "Plays the cello", topicPath: "Music"))
        let statements = Locked<[String]>([])
        try await kb.writer.base.writeWithoutTransaction { db in
            db.trace(options: .statement) { event in
                if case .statement(let statement) = event { statements.withLock { $0.append(statement.sql) } }
            }
        }
        let cursor = try await kb.currentCursor()
        try await kb.writer.base.writeWithoutTransaction { db in db.trace(options: []) }
        #expect(statements.withLock { $0 }.count == 1, "\(statements.withLock { $0 })")
        #expect(cursor.sequence > 0)
    }

    /// An answer carries the cursor its own reads saw, not one read before it: a change committed
    /// after the answer began but before its read is reflected.
    @Test func anAnswerReflectsTheCursorOfItsOwnRead() async throws {
        let kb = try TestKnowledgeBase.empty()
        try await kb.addFact(NewFact(content: "Plays the cello", topicPath: "Music"))
        let before = try await kb.currentCursor()
        let (hits, cursor) = try await kb.reflectingCursor {
            try await kb.addFact(NewFact(content: "Sings in a choir", topicPath: "Music"))
            return try await kb.search("choir", mode: .text)
        }
        #expect(hits.map(\.fact.content) == ["Sings in a choir"])
        #expect(cursor.sequence > before.sequence)
        #expect(cursor == (try await kb.currentCursor()))
    }

    /// Of an answer's reads, the earliest position counts: a change between two reads is still
    /// in the feed after the answer's cursor.
    @Test func anAnswerOfSeveralReadsReflectsTheEarliest() async throws {
        let kb = try TestKnowledgeBase.empty()
        try await kb.addFact(NewFact(content: "Plays the cello", topicPath: "Music"))
        let (_, cursor) = try await kb.reflectingCursor {
            _ = try await kb.search("cello", mode: .text)
            try await kb.addFact(NewFact(content: "Sings in a choir", topicPath: "Music"))
            return try await kb.search("choir", mode: .text)
        }
        let events = try await Self.allChanges(kb, after: cursor)
        #expect(events.map(\.kind).contains(.factAdded), "\(events.map(\.kind))")
        // An answer that reads nothing reflects the feed's position when it ends.
        let (_, unread) = try await kb.reflectingCursor { 42 }
        #expect(unread == (try await kb.currentCursor()))
    }

    @Test func eachWriteReportsWhatItDid() async throws {
        let kb = try TestKnowledgeBase.empty()
        let start = try await kb.currentCursor()
        let added = try await kb.addFact(NewFact(content: "Plays the cello", topicPath: "Music"))
        let id = added.id
        try await kb.addFact(NewFact(content: "Plays the cello", topicPath: "Music", sources: ["conv-2"]))
        try await kb.updateFact(id: id, FactUpdate(importance: .high))
        try await kb.deactivateFact(id: id)
        try await kb.reactivateFact(id: id)
        try await kb.renameTopic("Music", to: "Music & Art")
        try await kb.deleteFact(id: id)
        try await kb.undo()

        let events = try await Self.allChanges(kb, after: start)
        #expect(
            events.map(\.kind) == [
                .topicCreated, .factAdded, .factMentioned, .factUpdated, .factDeactivated, .factReactivated,
                .topicRenamed, .factDeleted, .factRestored,
            ])
        let update = try #require(events.first { $0.kind == .factUpdated })
        #expect(update.fields == ["importance"])
        // Every event carries the fact as it is now: restored, high, in the renamed topic.
        for event in events where event.factID != nil {
            #expect(event.fact?.importance == .high)
            #expect(event.fact?.topicPath == "Music & Art")
        }
        #expect(events.first { $0.kind == .topicRenamed }?.topic?.path == "Music & Art")
        // Cursors only grow.
        #expect(events.map(\.cursor.sequence) == events.map(\.cursor.sequence).sorted())
        #expect(Set(events.map(\.cursor.sequence)).count == events.count)
    }

    @Test func aTransactionsEventsComeInOnePage() async throws {
        let kb = try TestKnowledgeBase.empty()
        let facts = (1...40).map { NewFact(content: "Batch fact number \($0)", topicPath: "Batch") }
        _ = try await kb.addFacts(facts)
        let page = try await kb.changes(limit: 3)
        // The batch is one transaction: a page of 3 still holds all of it.
        #expect(page.events.count == 41)
        #expect(Set(page.events.map(\.transaction)).count == 1)
        #expect(page.events.first?.transaction == page.events.first?.cursor.sequence)
        #expect(!page.hasMore)
    }

    @Test func applyingEveryEventGivesTheMemory() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let one = try KnowledgeBase(path: path)
        let two = try KnowledgeBase(path: path)
        var ids: [Int64] = []
        var generator = SplitMix64(seed: 7)
        func pick(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &generator) }
        for step in 0..<120 {
            let kb = step.isMultiple(of: 2) ? one : two
            try await RandomEdits.edit(kb, ids: &ids, adding: "Fact \(pick(60))", pick: pick)
        }
        var replica = Replica()
        replica.apply(try await Self.allChanges(one))
        #expect(replica.facts == (try await Self.snapshotFacts(two)))
        #expect(!replica.facts.isEmpty)
    }

    @Test func aSnapshotAndItsCursorMissNothing() async throws {
        let kb = try TestKnowledgeBase.empty()
        try await kb.addFact(NewFact(content: "Before the snapshot", topicPath: "A"))
        let snapshot = try await kb.snapshot()
        try await kb.addFact(NewFact(content: "After the snapshot", topicPath: "A"))
        var replica = Replica(facts: Dictionary(uniqueKeysWithValues: snapshot.facts.map { ($0.id, $0) }))
        replica.apply(try await Self.allChanges(kb, after: snapshot.cursor))
        #expect(replica.facts == (try await Self.snapshotFacts(kb)))
        #expect(replica.facts.count == 2)
    }

    @Test func badCursorsAreRefusedWithTheirReason() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let alice = try KnowledgeBase(path: path, namespace: "alice")
        let bob = try alice.inNamespace("bob")
        try await alice.addFact(NewFact(content: "Alice's fact", topicPath: "A"))
        let aliceCursor = try await alice.currentCursor()

        for text in ["", "abc", "12", "12-xyz", "-1-00000000", "1-123", "99999999999999999999-00000000"] {
            #expect(throws: MnemoError.self) { try alice.cursor(text) }
        }
        #expect(try alice.cursor(aliceCursor.description) == aliceCursor)
        // Another namespace's cursor.
        #expect(throws: MnemoError.self) { try bob.cursor(aliceCursor.description) }
        await #expect(throws: MnemoError.self) { try await bob.changes(after: aliceCursor) }
        // A cursor beyond the store's feed comes from another store.
        let ahead = ChangeCursor(sequence: aliceCursor.sequence + 1000, namespace: "alice")
        do {
            _ = try await alice.changes(after: ahead)
            Issue.record("a cursor ahead of the feed was accepted")
        } catch let MnemoError.invalidInput(field, reason) {
            #expect(field == "cursor")
            #expect(reason.contains("another store"))
        }
        await #expect(throws: MnemoError.self) { try await alice.changes(after: aliceCursor, limit: 0) }
    }

    @Test func aCursorOlderThanTheWindowHasExpired() async throws {
        let kb = try TestKnowledgeBase.empty()
        let origin = try await kb.currentCursor()
        for index in 1...5 { try await kb.addFact(NewFact(content: "Old fact \(index)", topicPath: "Old")) }
        let middle = try await kb.changes(after: origin, limit: 3).next
        let pruned = try await kb.pruneChanges(olderThan: Date().addingTimeInterval(60), keeping: 2)
        #expect(pruned == 4)
        await #expect(throws: MnemoError.cursorExpired(namespace: "default")) {
            try await kb.changes(after: origin)
        }
        await #expect(throws: MnemoError.cursorExpired(namespace: "default")) {
            try await kb.changes(after: middle)
        }
        // A snapshot's cursor is good, and nothing younger than the window is pruned.
        let snapshot = try await kb.snapshot()
        #expect(try await kb.changes(after: snapshot.cursor).events.isEmpty)
        #expect(try await kb.pruneChanges(olderThan: Date().addingTimeInterval(-60), keeping: 0) == 0)
    }

    @Test func anErasureLeavesNoContentInAnyEvent() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let kb = try KnowledgeBase(path: path)
        let planted = "Planted sentence about the zebra-striped umbrella"
        let id = try await kb.addFact(NewFact(content: planted, topicPath: "Secrets")).id
        try await kb.updateFact(id: id, FactUpdate(content: planted + " again"))
        try await kb.addFact(NewFact(content: "An unrelated fact", topicPath: "Other"))
        try await kb.eraseFacts(ids: [id])

        let events = try await Self.allChanges(kb)
        let erased = try #require(events.last { $0.factID == id })
        #expect(erased.kind == .factErased)
        for event in events where event.factID == id {
            #expect(event.fact == nil)
            #expect(event.fields.isEmpty || event.kind == .factUpdated)
        }
        #expect(try FileTraces(databaseAt: path).filesHolding("zebra-striped").isEmpty)
    }

    @Test func erasingTheNamespaceExpiresItsCursors() async throws {
        let kb = try TestKnowledgeBase.empty()
        try await kb.addFact(NewFact(content: "Soon forgotten", topicPath: "A"))
        let before = try await kb.currentCursor()
        try await kb.addFact(NewFact(content: "Also forgotten", topicPath: "A"))
        try await kb.eraseNamespace()
        await #expect(throws: MnemoError.cursorExpired(namespace: "default")) { try await kb.changes(after: before) }
        await #expect(throws: MnemoError.cursorExpired(namespace: "default")) { try await kb.changes(after: nil) }
        let snapshot = try await kb.snapshot()
        #expect(snapshot.facts.isEmpty)
        #expect(try await kb.changes(after: snapshot.cursor).events.isEmpty)
    }

    @Test func aStreamSeesAnotherInstancesCommits() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let follower = try KnowledgeBase(path: path)
        let writer = try KnowledgeBase(path: path)
        let stream = follower.changeStream(after: try await follower.currentCursor())
        let first = Task {
            for try await page in stream { return page.events.map(\.kind) }
            return []
        }
        try await writer.addFact(NewFact(content: "Written by the other instance", topicPath: "Elsewhere"))
        #expect(try await first.value(cancellingAfter: .seconds(30)) == [.topicCreated, .factAdded])
    }

    @Test func observationsSeeAnotherInstancesCommits() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let observer = try KnowledgeBase(path: path)
        let writer = try KnowledgeBase(path: path)
        let (firstValue, firstValueCame) = AsyncStream<Void>.makeStream()
        let values = Task {
            var seen: [[String]] = []
            for try await facts in observer.observeFacts() {
                seen.append(facts.map(\.content))
                firstValueCame.yield()
                if seen.count == 2 { break }
            }
            return seen
        }
        // Write once the observation holds its first value.
        for await _ in firstValue { break }
        try await writer.addFact(NewFact(content: "Plays the cello in a community orchestra", topicPath: "Music"))
        #expect(
            try await values.value(cancellingAfter: .seconds(30)) == [
                [], ["Plays the cello in a community orchestra"],
            ])
    }

    @Test func aLongWaitReturnsWhenAChangeComes() async throws {
        let kb = try TestKnowledgeBase.empty()
        let follower = ChangeFollower(knowledgeBase: kb, cursor: try await kb.currentCursor())
        let empty = try await follower.nextPage(waitingUpTo: .milliseconds(50))
        #expect(empty?.events.isEmpty == true)
        let waiting = Task { try await follower.nextPage(waitingUpTo: .seconds(30)) }
        try await Task.sleep(for: .milliseconds(100))
        try await kb.addFact(NewFact(content: "Arrives while waiting", topicPath: "A"))
        #expect(
            try await waiting.value(cancellingAfter: .seconds(30))?.events.map(\.kind) == [.topicCreated, .factAdded])
    }

    /// Many followers are woken at most once per spacing: commits that land meanwhile come in
    /// one page, so a fan-out to every follower is not paid at every commit.
    @Test func manyFollowersGetTheCommitsOfASpacingTogether() async throws {
        let kb = try TestKnowledgeBase.empty()
        let start = try await kb.currentCursor()
        let (count, commits) = (300, 40)
        let followers = (0..<count).map { _ in ChangeFollower(knowledgeBase: kb, cursor: start) }
        for follower in followers { _ = try await follower.position() }
        let clock = ContinuousClock()
        let began = clock.now
        let pages = try await withThrowingTaskGroup(of: Int.self) { group in
            for follower in followers {
                group.addTask {
                    var (pages, facts) = (0, 0)
                    while facts < commits, let page = try await follower.nextPage(waitingUpTo: .seconds(30)) {
                        pages += 1
                        facts += page.events.filter { $0.kind == .factAdded }.count
                    }
                    return pages
                }
            }
            for index in 0..<commits {
                try await kb.addFact(NewFact(content: "Commit \(index)", topicPath: "Load"))
                try await Task.sleep(for: .milliseconds(5))
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        let elapsed = clock.now - began
        let spacing = FeedSignal.wakeSpacing(followers: count)
        let mostWakes = Int(elapsed / spacing) + 2
        #expect(pages.count == count)
        #expect(pages.max()! <= mostWakes, "\(pages.max()!) pages in \(elapsed) at one wake per \(spacing)")
    }

    @Test func followersAtOnePlaceShareOneReadUntilTheNextCommit() async throws {
        let kb = try TestKnowledgeBase.empty()
        let start = try await kb.currentCursor()
        let followers = [
            ChangeFollower(knowledgeBase: kb, cursor: start), ChangeFollower(knowledgeBase: kb, cursor: start),
        ]
        let id = try await kb.addFact(NewFact(content: "Plays the cello", topicPath: "Music")).id
        let first = try #require(try await followers[0].nextPage())
        let second = try #require(try await followers[1].nextPage())
        #expect(first.sharedNumber != nil)
        #expect(second.sharedNumber == first.sharedNumber)
        #expect(second.events.compactMap(\.fact?.content) == ["Plays the cello"])

        // The erasure's commit retires the shared page before the erasure returns.
        try await kb.eraseFacts(ids: [id])
        let late = try #require(try await ChangeFollower(knowledgeBase: kb, cursor: start).nextPage())
        #expect(late.sharedNumber != first.sharedNumber)
        #expect(late.events.map(\.kind) == [.topicCreated, .factAdded, .factErased])
        #expect(late.events.allSatisfy { $0.fact == nil })
    }
}

/// The documents' example of following the feed.
@Suite struct ChangeFeedExampleTests {
    @Test func theFollowingExampleKeepsACopy() async throws {
        let kb = try TestKnowledgeBase.empty()
        try await kb.addFact(NewFact(content: "Known before", topicPath: "A"))
        let copy = Task { try await ChangeFeedExample.follow(kb, wanted: 2) }
        try await Task.sleep(for: .milliseconds(300))
        try await kb.addFact(NewFact(content: "Learned after", topicPath: "A"))
        let (facts, saved) = try await copy.value(cancellingAfter: .seconds(30))
        #expect(Set(facts.values.map(\.content)) == ["Known before", "Learned after"])
        #expect(saved == (try await kb.currentCursor()))
    }
}
