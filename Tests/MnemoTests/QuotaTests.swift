import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// Per-namespace fact limits: what is refused, what always passes, what is evicted and how
/// ingest reports it.
@Suite(.storesClosed) struct QuotaTests {
    /// An in-memory knowledge base whose near duplicates are pinned: the two tea sentences merge.
    static func knowledgeBase(limit: Int?, policy: QuotaPolicy = .reject, on backend: Backend = .sqlite) async throws
        -> KnowledgeBase
    {
        let embedder = SeededEmbedder(
            dimension: 8,
            pinned: [
                "I prefer Vorpalberry tea to coffee": [1, 0, 0, 0, 0, 0, 0, 0],
                "Prefers Vorpalberry tea over coffee": [0.98, 0.199, 0, 0, 0, 0, 0, 0],
            ])
        return try await backend.empty(embedder: embedder).withFactLimit(limit, policy: policy)
    }

    static func fact(_ content: String, _ importance: Importance = .medium, stated: String? = nil) -> NewFact {
        NewFact(
            content: content, topicPath: "Quota", importance: importance,
            createdAt: stated.map { ISO8601DateFormatter().date(from: $0)! })
    }

    static func count(_ kb: KnowledgeBase) async throws -> Int {
        try await kb.facts(matching: FactFilter(activity: .all), limit: 10_000).count
    }

    @Test func aNewFactPastTheLimitIsRefusedAndNothingChanges() async throws {
        let kb = try await Self.knowledgeBase(limit: 2)
        #expect(kb.factLimit == 2 && kb.quotaPolicy == .reject)
        try await kb.addFact(Self.fact("Lives in Porto"))
        try await kb.addFact(Self.fact("Works at a bakery"))
        await #expect(throws: MnemoError.quotaExceeded(limit: 2)) {
            try await kb.addFact(Self.fact("Plays the cello"))
        }
        #expect(try await Self.count(kb) == 2)
        #expect(
            "\(MnemoError.quotaExceeded(limit: 2))"
                == "the namespace holds its limit of 2 facts; delete or erase some, or raise the limit, before adding new ones"
        )
        // The limit is per namespace: another user's memory is not full.
        try await kb.inNamespace("bob").addFact(Self.fact("Plays the cello"))
    }

    @Test(arguments: Backend.available) func repeatsAndMergesAtTheLimitAreNeverRefused(on backend: Backend) async throws
    {
        let kb = try await Self.knowledgeBase(limit: 2, on: backend)
        let tea = try await kb.addFact(
            NewFact(content: "I prefer Vorpalberry tea to coffee", topicPath: "Food", type: .preference))
        try await kb.addFact(Self.fact("Lives in Porto"))
        let repeated = try await kb.addFact(Self.fact("lives in porto."))
        guard case .unchanged(let same) = repeated else {
            Issue.record("expected a repeat, got \(repeated)")
            return
        }
        #expect(same.mentionCount == 2)
        let merged = try await kb.addFact(
            NewFact(content: "Prefers Vorpalberry tea over coffee", topicPath: "Food", type: .preference))
        guard case .merged(let survivor) = merged else {
            Issue.record("expected a merge, got \(merged)")
            return
        }
        #expect(survivor.id == tea.id)
        // A batch of repeats alone passes too, and so does ingest of them.
        let outcomes = try await kb.addFacts([Self.fact("Lives in Porto"), Self.fact("LIVES IN PORTO")])
        #expect(outcomes.allSatisfy { !$0.isAdded })
        let report = try await kb.ingest(data: Data(#"{"topic": "Quota", "content": "Lives in Porto"}"#.utf8))
        #expect(report.unchanged == 1 && report.rejectedCount == 0)
    }

    @Test(arguments: Backend.available) func inactiveFactsCountAndDeletedOnesDoNot(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(limit: 2, on: backend)
        let porto = try await kb.addFact(Self.fact("Lives in Porto"))
        let bakery = try await kb.addFact(Self.fact("Works at a bakery"))
        try await kb.deactivateFact(id: porto.id)
        await #expect(throws: MnemoError.quotaExceeded(limit: 2)) { try await kb.addFact(Self.fact("Plays the cello")) }
        try await kb.deleteFact(id: bakery.id)
        #expect(try await kb.addFact(Self.fact("Plays the cello")).isAdded)
    }

    @Test(arguments: Backend.available) func aBatchThatDoesNotFitStoresNothing(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(limit: 3, on: backend)
        try await kb.addFact(Self.fact("Lives in Porto"))
        await #expect(throws: MnemoError.quotaExceeded(limit: 3)) {
            try await kb.addFacts([
                Self.fact("Works at a bakery"), Self.fact("Plays the cello"), Self.fact("Has a cat"),
            ])
        }
        #expect(try await Self.count(kb) == 1)
        #expect(try await kb.addFacts([Self.fact("Works at a bakery"), Self.fact("Plays the cello")]).count == 2)
    }

    @Test func theLimitComesFromTheConfigurationAndMustNotBeNegative() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let kb = try KnowledgeBase(
            url: URL(fileURLWithPath: path), configuration: KnowledgeBase.Configuration(factLimit: 0))
        await #expect(throws: MnemoError.quotaExceeded(limit: 0)) { try await kb.addFact(Self.fact("Lives in Porto")) }
        #expect(try kb.inNamespace("bob").factLimit == 0, "another namespace of the same base has the same limit")
        #expect(try kb.withFactLimit(nil).factLimit == nil)
        #expect(throws: MnemoError.self) {
            try KnowledgeBase(
                url: URL(fileURLWithPath: path), configuration: KnowledgeBase.Configuration(factLimit: -1))
        }
    }

    @Test func concurrentWritersNeverPassTheLimit() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        // Two connection pools on one file, as two processes would have, each writing 30 facts.
        let writers = try (0..<2).map { _ in try KnowledgeBase(path: path).withFactLimit(20) }
        let results = await withTaskGroup(of: Bool.self) { group in
            for (w, kb) in writers.enumerated() {
                for i in 0..<30 {
                    group.addTask {
                        do {
                            try await kb.addFact(Self.fact("Writer \(w) remembers item \(i)"))
                            return true
                        } catch MnemoError.quotaExceeded(limit: 20) {
                            return false
                        } catch {
                            Issue.record("unexpected \(error)")
                            return false
                        }
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.filter { $0 }.count == 20)
        #expect(try await Self.count(writers[0]) == 20)
    }

    @Test(arguments: Backend.available) func evictionTakesInactiveThenLeastImportantLeastMentionedOldest(
        on backend: Backend
    ) async throws {
        let kb = try await Self.knowledgeBase(limit: 5, policy: .evictLeastValuable, on: backend)
        let important = try await kb.addFact(
            Self.fact("Is allergic to penicillin", .high, stated: "2020-01-01T00:00:00Z"))
        let mentioned = try await kb.addFact(Self.fact("Likes jazz", .low, stated: "2020-01-01T00:00:00Z"))
        try await kb.addFact(Self.fact("likes jazz"))
        let newer = try await kb.addFact(Self.fact("Owns a red bike", .low, stated: "2024-01-02T00:00:00Z"))
        let older = try await kb.addFact(Self.fact("Owned a green car", .low, stated: "2024-01-01T00:00:00Z"))
        let hidden = try await kb.addFact(Self.fact("Lived in Braga", .high))
        try await kb.deactivateFact(id: hidden.id)

        var evicted: [Int64] = []
        for i in 1...4 {
            let result = try await kb.addFactsReportingEvictions([Self.fact("New medium fact number \(i)")])
            #expect(result.outcomes.count == 1 && result.outcomes[0].isAdded)
            evicted += result.evicted.map(\.id)
        }
        #expect(evicted == [hidden.id, older.id, newer.id, mentioned.id])
        #expect(try await Self.count(kb) == 5)
        // A low fact does not push out the medium and high ones that are left: it is refused.
        await #expect(throws: MnemoError.quotaExceeded(limit: 5)) {
            try await kb.addFact(Self.fact("Has a low opinion of figs", .low))
        }
        #expect(try await kb.fact(id: important.id) != nil)

        // An eviction is an undoable delete, recorded with its reason.
        let deleted = try #require(try await kb.history(ofFact: older.id).last)
        #expect(deleted.kind == .deleted && deleted.details["reason"] == "quota")
        let operation = try #require(try await kb.operations().first)
        #expect(operation.kind == .deleteFact && operation.summary.hasPrefix("evicted fact #\(mentioned.id)"))
        try await kb.undo(operation.id)
        #expect(try await kb.fact(id: mentioned.id)?.content == "Likes jazz")
    }

    @Test(arguments: Backend.available) func aBatchNeverEvictsItsOwnFacts(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(limit: 3, policy: .evictLeastValuable, on: backend)
        let old = try await kb.addFact(Self.fact("Owned a green car", .low))
        let batch = (1...4).map { Self.fact("New medium fact number \($0)") }
        await #expect(throws: MnemoError.quotaExceeded(limit: 3)) { try await kb.addFacts(batch) }
        #expect(try await kb.fact(id: old.id) != nil, "the refused batch evicted nothing")
        let result = try await kb.addFactsReportingEvictions(Array(batch.prefix(3)))
        #expect(result.evicted.map(\.id) == [old.id] && result.outcomes.allSatisfy(\.isAdded))
    }

    @Test(arguments: Backend.available) func ingestRejectsRecordsPastTheLimitAndStoresTheRest(on backend: Backend)
        async throws
    {
        let kb = try await Self.knowledgeBase(limit: 2, on: backend)
        try await kb.addFact(Self.fact("Lives in Porto"))
        let input = """
            {"topic": "Quota", "content": "Works at a bakery"}
            {"topic": "Quota", "content": "Lives in Porto"}
            {"topic": "Quota", "content": ""}
            {"topic": "Quota", "content": "Plays the cello"}
            {"topic": "Quota", "content": "works at a bakery"}
            """
        for batchSize in [1, 2, 100] {
            let kb = try await Self.knowledgeBase(limit: 2, on: backend)
            try await kb.addFact(Self.fact("Lives in Porto"))
            let report = try await kb.ingest(data: Data(input.utf8), options: IngestOptions(batchSize: batchSize))
            #expect(report.added == 1 && report.unchanged == 2 && report.rejectedCount == 2, "batch \(batchSize)")
            #expect(report.rejected.map(\.code) == [.emptyContent, .quotaExceeded])
            #expect(report.rejected.last?.line == 4 && report.rejected.last?.record == 4)
            #expect(report.evicted.isEmpty && report.committed)
            #expect("\(report)" == "5 records: 1 added, 0 merged, 2 unchanged, 2 rejected")
        }
        let twoNew = """
            {"topic": "Quota", "content": "Works at a bakery"}
            {"topic": "Quota", "content": "Plays the cello"}
            """
        let strict = try await kb.ingest(data: Data(twoNew.utf8), options: IngestOptions(strict: true))
        #expect(strict.rejected.map(\.code) == [.quotaExceeded] && strict.rejected.first?.line == 2)
        #expect(!strict.committed && strict.added == 0)
        #expect(try await Self.count(kb) == 1, "strict: nothing of the input is stored")
    }

    @Test(arguments: Backend.available) func ingestEvictsTheSameWhateverTheBatchSize(on backend: Backend) async throws {
        let lines = (1...5).map {
            #"{"topic": "Quota", "content": "Ingested fact number \#($0)", "importance": "medium"}"#
        }
        for batchSize in [1, 2, 500] {
            let kb = try await Self.knowledgeBase(limit: 3, policy: .evictLeastValuable, on: backend)
            let old = try await kb.addFact(Self.fact("Owned a green car", .low))
            let report = try await kb.ingest(
                data: Data(lines.joined(separator: "\n").utf8), options: IngestOptions(batchSize: batchSize))
            #expect(report.added == 3 && report.evicted == [old.id], "batch \(batchSize)")
            #expect(report.rejected.map(\.line) == [4, 5] && report.rejected.allSatisfy { $0.code == .quotaExceeded })
            #expect(
                try await kb.facts().map(\.content).sorted() == (1...3).map { "Ingested fact number \($0)" },
                "the input's first facts stay; its excess is refused, not swapped in")
            #expect("\(report)" == "5 records: 3 added, 0 merged, 0 unchanged, 2 rejected, 1 evicted")
        }
    }

    @Test(arguments: Backend.available) func storeAllOrNothingNamesTheRefusedRecords(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(limit: 1, on: backend)
        let outcome = try await kb.storeAllOrNothing([
            IngestRecord(content: "Lives in Porto"), IngestRecord(content: "Works at a bakery"),
        ])
        guard case .rejected(let rejections) = outcome else {
            Issue.record("expected a refusal, got \(outcome)")
            return
        }
        #expect(rejections.map(\.record) == [2] && rejections[0].code == .quotaExceeded)
        #expect(try await Self.count(kb) == 0)
    }
}
