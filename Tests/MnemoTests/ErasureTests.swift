import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// Erasure leaves nothing of a fact anywhere: not in the tables, not in the full-text index's
/// vocabulary, not in the bytes of the database file, its `-wal` or its `-shm`.
@Suite(.storesClosed) struct ErasureTests {
    static let secret = "Diagnosed with Zanzibarite syndrome in 2024, a secret I keep from my employer."
    /// Words only the secret uses (the full-text index keeps them stemmed: looked for by prefix).
    static let secretWords = ["Zanzibarite", "Diagnosed", "syndrome"]

    static func embedder() -> SeededEmbedder {
        SeededEmbedder(
            dimension: 8,
            pinned: [
                "Ran 10 km on Sunday with Quixlebert": [0, 0, 1, 0, 0, 0, 0, 0],
                "On Sunday I did a 10 km run with Quixlebert": [0, 0, 0.95, 0.3122, 0, 0, 0, 0],
                "I prefer Vorpalberry tea to coffee": [1, 0, 0, 0, 0, 0, 0, 0],
                "Prefers Vorpalberry tea over coffee": [0.9, 0.43589, 0, 0, 0, 0, 0, 0],
            ])
    }

    static func fileKnowledgeBase(namespace: String = "alice") throws -> (KnowledgeBase, String) {
        let path = try TestKnowledgeBase.temporaryPath()
        let kb = try KnowledgeBase(path: path, namespace: namespace, embedder: embedder())
        return (kb, path)
    }

    @Test func anErasedFactLeavesNoTraceInTheFiles() async throws {
        let (kb, path) = try Self.fileKnowledgeBase()
        let kept = try await kb.addFact(NewFact(content: "My employer is a bakery in Lisbon", topicPath: "Work"))
        let secret = try await kb.addFact(
            NewFact(content: "Diagnosed with a rare syndrome", topicPath: "Health", sources: ["conv-1"]))
        // The content changes (the old one goes to the history), it is deleted (the undo record
        // holds it), then erased: the path on which a deleted fact still left copies behind.
        try await kb.updateFact(id: secret.id, FactUpdate(content: Self.secret, importance: .high))
        try await kb.deleteFact(id: secret.id)
        let before = try FileTraces(databaseAt: path)
        #expect(!before.found([Self.secret, "Zanzibarite"]).isEmpty, "the scan must see the secret before the erase")

        let receipt = try await kb.eraseFacts(ids: [secret.id])
        #expect(receipt.factIDs == [secret.id])
        #expect(receipt.facts == 0, "a deleted fact has no row left")
        #expect(receipt.historyRows == 3) // added, updated, deleted; none of the kept fact's
        #expect(receipt.undoRecords == 2) // the update and the delete
        #expect(receipt.reason == .requested)
        #expect(receipt.walTruncated)

        let after = try FileTraces(databaseAt: path)
        #expect(after.found([Self.secret, "Diagnosed with a rare syndrome"] + Self.secretWords) == [])
        #expect(!after.found(["employer", "bakery"]).isEmpty, "words of the kept fact stay")
        #expect(try await kb.history(ofFact: secret.id).isEmpty)
        #expect(try await kb.search("bakery employer", mode: .text).map(\.fact.id) == [kept.id])
        #expect(try await kb.check().isClean)
    }

    @Test(arguments: Backend.available) func historyRowsOfAStoredFactAreCounted(on backend: Backend) async throws {
        let kb = try await backend.empty(embedder: Self.embedder())
        let fact = try await kb.addFact(NewFact(content: "Keeps bees on the roof", topicPath: "Hobbies"))
        try await kb.addFact(NewFact(content: "keeps bees on the roof.", topicPath: "Hobbies"))
        try await kb.deactivateFact(id: fact.id)
        let receipt = try await kb.eraseFacts(ids: [fact.id])
        #expect(receipt.facts == 1 && receipt.vectors == 1 && receipt.historyRows == 3 && receipt.undoRecords == 1)
        #expect(try await kb.fact(id: fact.id) == nil)
        #expect(try await kb.history(ofFact: fact.id).isEmpty)
        #expect(try await kb.operations().isEmpty)
        let tombstone = try #require(try await kb.tombstone(ofFact: fact.id))
        #expect(tombstone.reason == .requested)
    }

    @Test func aFactThatAbsorbedDuplicatesTakesThemAlong() async throws {
        let (kb, path) = try Self.fileKnowledgeBase()
        // Merged on arrival: the incoming content lives only in the survivor's history.
        let tea = try await kb.addFact(
            NewFact(content: "I prefer Vorpalberry tea to coffee", topicPath: "Food", type: .preference))
        let arrival = try await kb.addFact(
            NewFact(content: "Prefers Vorpalberry tea over coffee", topicPath: "Food", type: .preference))
        guard case .merged = arrival else {
            Issue.record("expected a merge on arrival, got \(arrival)")
            return
        }
        // Merged by dedupe: the absorbed fact's own history stays under its id.
        let stored = try await kb.addFacts(
            [
                NewFact(content: "Ran 10 km on Sunday with Quixlebert", topicPath: "Sport"),
                NewFact(content: "On Sunday I did a 10 km run with Quixlebert", topicPath: "Sport"),
            ],
            nearDuplicates: nil)
        try await kb.dedupe()
        let (survivor, absorbed) = (stored[0].id, stored[1].id)
        #expect(try await kb.fact(id: absorbed) == nil, "dedupe must have merged the run facts")

        let receipt = try await kb.eraseFacts(ids: [tea.id, survivor])
        #expect(receipt.factIDs == [tea.id, survivor, absorbed].sorted())
        #expect(receipt.facts == 2)
        #expect(try await kb.history(ofFact: absorbed).isEmpty)
        #expect(try await kb.tombstone(ofFact: absorbed) != nil)
        let after = try FileTraces(databaseAt: path)
        #expect(
            after.found([
                "I prefer Vorpalberry tea to coffee", "Prefers Vorpalberry tea over coffee",
                "Ran 10 km on Sunday with Quixlebert", "On Sunday I did a 10 km run with Quixlebert",
                "Vorpalberry", "Quixlebert",
            ]) == [])
        #expect(try await kb.check().isClean)
    }

    @Test func erasingANamespaceLeavesTheOthersWhole() async throws {
        let (alice, path) = try Self.fileKnowledgeBase(namespace: "alice")
        let bob = try alice.inNamespace("bob")
        try await alice.addFacts([
            NewFact(content: Self.secret, topicPath: "Health/Secrets"),
            NewFact(content: "Plays the theremin in a Klezmerwave band", topicPath: "Music"),
            NewFact(content: "Walks the dog every morning", topicPath: "Pets"),
        ])
        let aliceDog = try #require(try await alice.search("dog", mode: .text).first?.fact.id)
        try await alice.updateFact(id: aliceDog, FactUpdate(importance: .high))
        let bobFacts = try await bob.addFacts([
            NewFact(content: "Walks the dog every evening", topicPath: "Pets"),
            NewFact(content: "Keeps a secret recipe for Brombeerkuchen", topicPath: "Food"),
        ])
        try await bob.deleteFact(id: bobFacts[1].id)

        let receipt = try await alice.eraseNamespace()
        #expect(receipt.facts == 3 && receipt.vectors == 3 && receipt.topics == 4)
        #expect(receipt.historyRows >= 3 + 4 && receipt.undoRecords == 1)
        #expect(receipt.reason == .namespaceErased)
        #expect(try await alice.facts().isEmpty)
        #expect(try await alice.topicTree().isEmpty)
        #expect(try await alice.operations().isEmpty)

        let after = try FileTraces(databaseAt: path)
        #expect(
            after.found([
                Self.secret, "Plays the theremin in a Klezmerwave band", "Walks the dog every morning",
                "Zanzibarite", "theremin", "Klezmerwave", "morning", "Secrets", "Music",
            ]) == [])
        // Bob's words, shared or not, are all still there, and so is all of his memory.
        #expect(after.found(["Walks the dog every evening", "evening", "Brombeerkuchen"]).count == 3)
        #expect(try await bob.search("dog walks", mode: .text).map(\.fact.id) == [bobFacts[0].id])
        #expect(try await bob.search("Walks the dog every evening", mode: .semantic).map(\.fact.id) == [bobFacts[0].id])
        #expect(try await bob.history(ofFact: bobFacts[1].id).map(\.kind) == [.added, .deleted])
        try await bob.undo()
        #expect(try await bob.fact(id: bobFacts[1].id) != nil)
        #expect(try await alice.check().isClean)
    }

    /// What stops sync from bringing an erased fact back: a keyed hash of each wording it had,
    /// matched in its own namespace only, and gone with the namespace.
    @Test func eachWordingOfAnErasedFactLeavesAKeyedHashUntilTheNamespaceIsErased() async throws {
        let (alice, _) = try Self.fileKnowledgeBase(namespace: "alice")
        let first = "Diagnosed with a rare syndrome"
        let fact = try await alice.addFact(NewFact(content: first, topicPath: "Health"))
        try await alice.updateFact(id: fact.id, FactUpdate(content: Self.secret))
        try await alice.addFact(NewFact(content: "Walks the dog every morning", topicPath: "Pets"))
        try await alice.eraseFacts(ids: [fact.id])
        let erased = { (namespace: String, content: String) in
            try await alice.writer.read { db in
                try ErasedContent.contains(db, namespace: namespace, contentKey: TextNormalization.factKey(content))
            }
        }
        #expect(try await erased("alice", first))
        #expect(try await erased("alice", "  diagnosed with a RARE syndrome. "), "matched by content key")
        #expect(try await erased("alice", Self.secret))
        #expect(try await !erased("alice", "Walks the dog every morning"))
        #expect(try await !erased("bob", first))
        let hashLength = try await alice.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT length(key_hash) FROM erased_content")
        }
        #expect(hashLength == 32)

        try await alice.eraseNamespace()
        #expect(try await !erased("alice", first))
        let left = try await alice.writer.read { db in
            try Int.fetchOne(
                db, sql: "SELECT (SELECT COUNT(*) FROM erased_content) + (SELECT COUNT(*) FROM namespace_secret)")
        }
        #expect(left == 0)
    }

    @Test func theVectorIndexDropsErasedFactsInEveryProcess() async throws {
        let (kb, path) = try Self.fileKnowledgeBase()
        let other = try KnowledgeBase(path: path, namespace: "alice", embedder: Self.embedder())
        let facts = try await kb.addFacts([
            NewFact(content: "Collects antique maps", topicPath: "Hobbies"),
            NewFact(content: "Collects vintage stamps", topicPath: "Hobbies"),
        ])
        #expect(try await other.search("Collects antique maps", mode: .semantic).first?.fact.id == facts[0].id)
        try await kb.eraseFacts(ids: [facts[0].id])
        for base in [kb, other] {
            let ids = try await base.search(
                SearchQuery("Collects antique maps", mode: .semantic, relativeScoreFloor: nil)
            ).map(\.fact.id)
            #expect(!ids.contains(facts[0].id) && ids.contains(facts[1].id))
        }
    }

    @Test func anUnknownOrForeignIDErasesNothing() async throws {
        let kb = try KnowledgeBase.inMemory(namespace: "alice")
        let mine = try await kb.addFact(NewFact(content: "Likes figs", topicPath: "Food"))
        let theirs = try await kb.inNamespace("bob").addFact(NewFact(content: "Likes dates", topicPath: "Food"))
        await #expect(throws: MnemoError.notFound(.fact(theirs.id))) {
            try await kb.eraseFacts(ids: [mine.id, theirs.id])
        }
        await #expect(throws: MnemoError.notFound(.fact(999))) { try await kb.eraseFacts(ids: [999]) }
        #expect(try await kb.fact(id: mine.id) != nil)
        #expect(try await kb.inNamespace("bob").fact(id: theirs.id) != nil)
    }

    @Test(arguments: Backend.available) func aRerunIsANoOpAndIDsAreNeverReused(on backend: Backend) async throws {
        let kb = try await backend.empty()
        let first = try await kb.addFact(NewFact(content: "Speaks Basque", topicPath: "Languages"))
        let last = try await kb.addFact(NewFact(content: "Learns Welsh", topicPath: "Languages"))
        try await kb.eraseFacts(ids: [last.id])
        let again = try await kb.eraseFacts(ids: [last.id])
        #expect(again.factIDs.isEmpty && again.facts == 0 && again.historyRows == 0)
        let next = try await kb.addFact(NewFact(content: "Learns Breton", topicPath: "Languages"))
        #expect(next.id > last.id, "a new fact must not take an erased fact's id")
        #expect(try await kb.fact(id: first.id) != nil)
    }

    @Test(arguments: Backend.available) func undoRecordsOfOtherFactsSurvive(on backend: Backend) async throws {
        let kb = try await backend.empty()
        let kept = try await kb.addFact(NewFact(content: "Owns a kayak", topicPath: "Sport"))
        let erased = try await kb.addFact(NewFact(content: "Owes money to a cousin", topicPath: "Money"))
        try await kb.deactivateFact(id: kept.id)
        try await kb.deactivateFact(id: erased.id)
        try await kb.undo() // reactivates the erased one: the undo's record holds it too
        let receipt = try await kb.eraseFacts(ids: [erased.id])
        #expect(receipt.undoRecords == 2)
        #expect(try await kb.operations().count == 1)
        try await kb.undo()
        #expect(try await kb.fact(id: kept.id)?.isActive == true)
    }

    @Test func checkFindsAndErasesWhatAnEraseLeft() async throws {
        let kb = try KnowledgeBase.inMemory()
        let fact = try await kb.addFact(NewFact(content: "Hums while coding", topicPath: "Habits"))
        try await kb.eraseFacts(ids: [fact.id])
        // What a version that did not know tombstones might write: an event for an erased id.
        try await kb.writer.write { db in
            try HistoryTable.record(
                db, namespace: kb.namespace, factID: fact.id, kind: .deleted, details: ["content": "Hums while coding"])
        }
        let found = try await kb.check()
        #expect(found.problems.map(\.code) == [.erasedRemains])
        let repaired = try await kb.check(repair: true)
        #expect(repaired.isClean && repaired.repairs.count == 1)
        #expect(try await kb.history(ofFact: fact.id).isEmpty)
    }

    @Test func receiptsEncodeWithSnakeCaseKeys() throws {
        var receipt = ErasureReceipt(
            namespace: "alice", reason: .namespaceErased, erasedAt: Date(timeIntervalSince1970: 0))
        receipt.factIDs = [3]
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder.mnemoOutput(pretty: false).encode(receipt))
                as? [String: Any])
        #expect(
            Set(object.keys) == [
                "namespace", "reason", "fact_ids", "facts", "topics", "vectors", "history_rows",
                "undo_records", "conflict_links", "erased_at", "wal_truncated",
            ])
        #expect(object["reason"] as? String == "namespace_erased")
        #expect(object["erased_at"] as? String == "1970-01-01T00:00:00Z")
    }
}
