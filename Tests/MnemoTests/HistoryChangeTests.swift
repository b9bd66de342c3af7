import MnemoTestSupport
import Testing

@testable import Mnemo

/// ``HistoryEvent/change`` reads every kind of event typed, from the details as stored.
@Suite(.storesClosed) struct HistoryChangeTests {
    @Test(arguments: Backend.available) func factEventsReadTyped(on backend: Backend) async throws {
        let kb = try await backend.empty()
        let id = try await kb.addFact(NewFact(content: "Runs 5 km", topicPath: "Sport/Running", sources: ["conv-1"])).id
        try await kb.addFact(NewFact(content: "runs 5 km.", topicPath: "Sport/Running", sources: ["conv-2"]))
        try await kb.updateFact(id: id, FactUpdate(content: "Runs 10 km", importance: .high))
        try await kb.deactivateFact(id: id)
        try await kb.reactivateFact(id: id)
        try await kb.deleteFact(id: id)
        let changes = try await kb.history(ofFact: id).map(\.change)
        #expect(
            changes == [
                .added(topicPath: "Sport/Running", source: "conv-1"),
                .mentioned(source: "conv-2"),
                .updated([
                    HistoryEvent.FieldChange(field: "content", old: "Runs 5 km", new: "Runs 10 km"),
                    HistoryEvent.FieldChange(field: "importance", old: "medium", new: "high"),
                ]),
                .deactivated,
                .reactivated,
                .deleted(content: "Runs 10 km"),
            ])
    }

    @Test(arguments: Backend.available) func mergesReadTyped(on backend: Backend) async throws {
        let kb = try await backend.empty(embedder: MergeTests.embedder())
        let first = try await kb.addFact(
            NewFact(content: "I prefer tea to coffee", topicPath: "Food", type: .preference))
        try await kb.addFact(
            NewFact(content: "Prefers tea over coffee", topicPath: "Food", type: .preference, sources: ["conv-2"]))
        let arrival = try #require(try await kb.history(ofFact: first.id).last?.change)
        guard case .merged(let content, let mergedFactID, let similarity, let source) = arrival else {
            Issue.record("expected a merge, got \(arrival)")
            return
        }
        #expect(content == "Prefers tea over coffee" && mergedFactID == nil && source == "conv-2")
        #expect(abs((similarity ?? 0) - 0.9) < 0.001)

        let stored = try await kb.addFacts(
            [
                NewFact(content: "Ran 10 km on Sunday", topicPath: "Sport"),
                NewFact(content: "On Sunday I did a 10 km run", topicPath: "Sport"),
            ],
            nearDuplicates: nil)
        try await kb.dedupe()
        let (survivor, absorbed) = (stored[0].id, stored[1].id)
        #expect(
            try await kb.history(ofFact: survivor).last?.change
                == .merged(content: "On Sunday I did a 10 km run", mergedFactID: absorbed, similarity: nil, source: nil)
        )
        #expect(
            try await kb.history(ofFact: absorbed).last?.change
                == .mergedInto(survivorID: survivor, content: "On Sunday I did a 10 km run"))
    }

    @Test(arguments: Backend.available) func topicEventsReadTyped(on backend: Backend) async throws {
        let kb = try await backend.empty()
        try await kb.createTopic("Hobbies/Climbing")
        try await kb.createTopic("Sport")
        try await kb.renameTopic("Hobbies/Climbing", to: "Bouldering")
        try await kb.moveTopic("Hobbies/Bouldering", under: "Sport")
        try await kb.createTopic("Outdoors")
        try await kb.mergeTopics(["Outdoors"], into: "Sport")
        let bouldering = try await kb.history(ofTopic: "Sport/Bouldering").map(\.change)
        #expect(
            bouldering == [
                .topicCreated(path: "Hobbies/Climbing"),
                .topicRenamed(from: "Hobbies/Climbing", to: "Hobbies/Bouldering"),
                .topicMoved(from: "Hobbies/Bouldering", to: "Sport/Bouldering"),
            ])
        #expect(try await kb.history(ofTopic: "Sport").last?.change == .topicMerged(mergedFrom: "Outdoors", into: nil))
        let temporary = try await kb.createTopic("Temporary")
        try await kb.deleteTopic("Temporary")
        let events = try await kb.databaseWriter.read { db in
            try HistoryTable.events(db, namespace: KnowledgeBase.defaultNamespace, topicID: temporary.id)
        }
        #expect(events.suffix(2).map(\.change) == [.topicCreated(path: "Temporary"), .topicDeleted(path: "Temporary")])
        // (A deleted topic's id is reused by the next topic, whose history then starts with the
        // old topic's events: here "Outdoors", merged away. The topic table has no
        // AUTOINCREMENT, so SQLite hands out the largest id + 1 again.)
        #expect(events.contains { $0.change == .topicMerged(mergedFrom: nil, into: "Sport") })
    }

    @Test func missingDetailsReadAsEmpty() {
        let event = HistoryEvent(id: 1, factID: 1, topicID: nil, kind: .mergedInto, details: [:], date: .now)
        #expect(event.change == .mergedInto(survivorID: nil, content: ""))
        let update = HistoryEvent(
            id: 2, factID: 1, topicID: nil, kind: .updated,
            details: ["content": "A → B → C", "confidence": "0.5 → 0.8"], date: .now)
        #expect(
            update.change
                == .updated([
                    HistoryEvent.FieldChange(field: "confidence", old: "0.5", new: "0.8"),
                    HistoryEvent.FieldChange(field: "content", old: "A", new: "B → C"),
                ]))
    }
}
