import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// Results and events print as readable lines: an app shows them without a switch over cases.
@Suite("Descriptions of results and events", .storesClosed)
struct DescriptionTests {
    static let date = Date(timeIntervalSince1970: 1_741_944_060) // 2025-03-14T09:21:00Z

    static func fact(id: Int64 = 3, _ content: String = "Prefers SwiftUI over UIKit", active: Bool = true) -> Fact {
        Fact(
            id: id, uid: "00000000-0000-4000-8000-000000000003", namespace: "user-42", topicID: 4,
            topicPath: "Technology/iOS Development", content: content,
            type: .preference, importance: .high, confidence: 0.95, isActive: active, sources: ["conv-17"],
            mentionCount: 2, createdAt: date, updatedAt: date)
    }

    @Test func aFieldChangeAndAnUpdateReadAsOldToNew() {
        let change = HistoryEvent.Change.updated([
            .init(field: "importance", old: "medium", new: "high"),
            .init(field: "type", old: "fact", new: "preference"),
        ])
        #expect(change.description == "updated importance: medium → high; type: fact → preference")
        #expect(!"\(change)".contains("FieldChange"))
    }

    @Test func everyKindOfChangeHasItsOwnSentence() {
        let changes: [HistoryEvent.Change] = [
            .added(topicPath: "Health", source: "conv-2"),
            .mentioned(source: nil),
            .merged(content: "Runs daily", mergedFactID: 5, similarity: 0.934, source: nil),
            .mergedInto(survivorID: 3, content: "Runs daily"),
            .deactivated, .reactivated,
            .deleted(content: "Runs daily"),
            .topicCreated(path: "Health"),
            .topicRenamed(from: "Sport", to: "Sports"),
            .topicMoved(from: "Sport", to: "Health/Sport"),
            .topicMerged(mergedFrom: "Fitness", into: nil),
            .topicMerged(mergedFrom: nil, into: "Health"),
            .topicDeleted(path: "Health"),
        ]
        #expect(
            changes.map(\.description) == [
                #"added to "Health" (from conv-2)"#,
                "mentioned again",
                #"absorbed "Runs daily" (fact #5, similarity 0.93)"#,
                #"merged "Runs daily" into fact #3"#,
                "deactivated", "reactivated",
                #"deleted "Runs daily""#,
                #"topic "Health" created"#,
                #"topic renamed "Sport" → "Sports""#,
                #"topic moved "Sport" → "Health/Sport""#,
                #"topic "Fitness" merged into this one"#,
                #"topic merged into "Health""#,
                #"topic "Health" deleted"#,
            ])
    }

    @Test(arguments: Backend.available) func aStoredEventNamesItsDateAndSubject(on backend: Backend) async throws {
        let kb = try await backend.with([
            NewFact(content: "Likes tea", topicPath: "Food", sources: ["conv-1"])
        ])
        let id = try #require(try await kb.facts().first?.id)
        try await kb.updateFact(id: id, FactUpdate(importance: .high))
        let lines = try await kb.history(ofFact: id).map(\.description)
        #expect(lines.count == 2)
        #expect(lines[0].hasSuffix(#"fact #\#(id): added to "Food" (from conv-1)"#))
        #expect(lines[1].hasSuffix("fact #\(id): updated importance: medium → high"))
        #expect(lines[0].hasPrefix("20"))
    }

    @Test func anOutcomeSaysWhatHappenedToWhichFact() {
        #expect(
            AddFactOutcome.added(Self.fact()).description
                == #"added #3 "Prefers SwiftUI over UIKit" (preference, high, 0.95) in Technology/iOS Development"#)
        #expect(AddFactOutcome.unchanged(Self.fact()).description.hasPrefix(#"unchanged: already #3 "Prefers"#))
        #expect(AddFactOutcome.unchanged(Self.fact()).description.hasSuffix("seen 2 times"))
        #expect(Self.fact(active: false).description.hasSuffix("[inactive]"))
    }

    @Test func aSearchHitShowsItsScores() {
        let hit = SearchHit(fact: Self.fact(), score: 0.8734, textScore: 4.213, similarity: 0.81, snippet: nil)
        #expect(
            hit.description
                == #"0.873 #3 "Prefers SwiftUI over UIKit" (preference, high, 0.95) in Technology/iOS Development (text 4.21, similarity 0.81)"#
        )
    }

    @Test(arguments: Backend.available) func aTopicNodeCountsItsFactsAndSubtopics(on backend: Backend) async throws {
        let kb = try await backend.with([
            NewFact(content: "Likes tea", topicPath: "Food"),
            NewFact(content: "Likes green tea", topicPath: "Food/Drinks"),
            NewFact(content: "Likes black coffee", topicPath: "Food/Drinks"),
        ])
        let food = try #require(try await kb.topicTree().first)
        #expect(food.description == "Food (1 fact, 3 in the subtree, 1 subtopic)")
        #expect(food.children[0].description == "Food/Drinks (2 facts)")
    }

    @Test func anErasureReceiptSaysWhatWentAndWhyItCountsFewerRowsThanFacts() {
        var receipt = ErasureReceipt(namespace: "user-42", reason: .requested, erasedAt: Self.date)
        #expect(receipt.description == "nothing to erase in user-42 (requested) at 2025-03-14T09:21:00Z")
        receipt.factIDs = [26, 27, 28]
        receipt.facts = 1
        receipt.vectors = 1
        receipt.historyRows = 7
        receipt.undoRecords = 2
        receipt.walTruncated = true
        #expect(
            receipt.description == """
                erased 3 facts from user-42 (requested) at 2025-03-14T09:21:00Z: #26, #27, #28
                  removed 1 fact row, 0 topics, 1 vector, 7 history events, 2 undo records, 0 conflict links
                  2 of the facts had no row left (deleted or merged into another before): their history and undo records went
                """)
        receipt.walTruncated = false
        #expect(
            receipt.description.hasSuffix(
                "\n  the -wal file may hold erased content until the next checkpoint (another connection was reading)"))
    }

    @Test func aRealErasureReceiptPrintsItsCounts() async throws {
        let kb = try await TestKnowledgeBase.with([
            NewFact(content: "Likes tea", topicPath: "Food"), NewFact(content: "Runs on Sundays", topicPath: "Fitness"),
        ])
        try await kb.deleteFact(id: 2)
        let receipt = try await kb.eraseFacts(ids: [1, 2])
        #expect(receipt.description.hasPrefix("erased 2 facts from default (requested) at "))
        #expect(receipt.description.contains(": #1, #2\n  removed 1 fact row, 0 topics, 0 vectors, "))
        #expect(
            receipt.description.contains("\n  1 of the facts had no row left (deleted or merged into another before)"))
        #expect(!receipt.description.contains("ErasureReceipt("))
    }

    @Test(arguments: Backend.available) func reportsReadAsSentences(on backend: Backend) async throws {
        let kb = try await backend.with([
            NewFact(content: "Likes tea", topicPath: "Food"),
            NewFact(content: "Runs on Sundays", topicPath: "Fitness"),
        ])
        let ingest = try await kb.ingest(
            data: Data(
                #"""
                {"topic": "Food", "content": "Likes tea"}
                {"topic": "Food", "content": "Likes coffee"}
                {"topic": "Food", "content": "Likes cake", "type": "opinion"}
                """#.utf8))
        #expect(ingest.description == "3 records: 1 added, 0 merged, 1 unchanged, 1 rejected")
        let merge = try await kb.mergeTopics(["Fitness"], into: "Health")
        #expect(merge.description == "merged Fitness into Health: 1 fact moved, 0 duplicate facts merged")
        let again = try await kb.mergeTopics(["Fitness"], into: "Health")
        #expect(again.description == "Fitness already merged into Health")
        #expect(try await kb.check().description.hasPrefix("clean ("))
        #expect(try await kb.stats().description == "3 facts (3 active, 0 inactive) in 2 topics, 1 level deep")
    }
}
