import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

@Suite("Goals")
struct GoalTests {
    static let now = Timestamp.parse("2025-06-10T12:00:00Z")!

    static func knowledgeBase() throws -> KnowledgeBase {
        try KnowledgeBase.inMemory(now: { now })
    }

    @Test func aNewGoalIsActiveAtZeroAndOtherTypesHaveNoGoalFields() async throws {
        let kb = try Self.knowledgeBase()
        let goal = try await kb.addFact(NewFact(content: "Pass the JLPT N4 exam", topicPath: "Languages", type: .goal))
            .fact
        #expect(goal.status == .active)
        #expect(goal.progress == 0)
        #expect(goal.targetDate == nil && goal.completedAt == nil)
        let plain = try await kb.addFact(NewFact(content: "Lives in Porto", topicPath: "Home")).fact
        #expect(plain.status == nil && plain.progress == nil)
    }

    @Test func aFactThatIsNotAGoalRefusesGoalFieldsNamingTheField() async throws {
        let kb = try Self.knowledgeBase()
        await #expect(
            throws: MnemoError.invalidInput(
                field: "status", reason: "only a goal has a status; this fact is a preference")
        ) {
            try await kb.addFact(
                NewFact(content: "Likes tea", topicPath: "Food", type: .preference, status: .completed))
        }
        await #expect(
            throws: MnemoError.invalidInput(field: "progress", reason: "progress must be between 0 and 1, not 1.5")
        ) {
            try await kb.addFact(NewFact(content: "Run a marathon", topicPath: "Sport", type: .goal, progress: 1.5))
        }
        let plain = try await kb.addFact(NewFact(content: "Lives in Porto", topicPath: "Home")).fact
        await #expect(
            throws: MnemoError.invalidInput(
                field: "progress", reason: "only a goal has a progress; this fact is a fact")
        ) {
            try await kb.updateFact(id: plain.id, FactUpdate(progress: 0.5))
        }
    }

    @Test func completingAGoalSetsCompletedAtAndEveryChangeIsAHistoryEvent() async throws {
        let kb = try Self.knowledgeBase()
        let goal = try await kb.addFact(NewFact(content: "Read 30 books", topicPath: "Books", type: .goal)).fact
        _ = try await kb.updateFact(id: goal.id, FactUpdate(progress: 0.4))
        let done = try await kb.updateFact(id: goal.id, FactUpdate(status: .completed, progress: 1))
        #expect(done.status == .completed && done.progress == 1)
        // Stamped with the time of the change, as `updated_at` is.
        #expect(done.completedAt == done.updatedAt)
        let reopened = try await kb.updateFact(id: goal.id, FactUpdate(status: .active))
        #expect(reopened.completedAt == nil)
        let changes = try await kb.history(ofFact: goal.id).compactMap { event -> [HistoryEvent.FieldChange]? in
            if case .updated(let changes) = event.change { return changes } else { return nil }
        }
        #expect(changes.count == 3)
        #expect(changes[0].contains(HistoryEvent.FieldChange(field: "progress", old: "0.0", new: "0.4")))
        #expect(changes[1].contains(HistoryEvent.FieldChange(field: "status", old: "active", new: "completed")))
        #expect(changes[1].contains(HistoryEvent.FieldChange(field: "progress", old: "0.4", new: "1.0")))
        #expect(changes[1].contains { $0.field == "completed_at" && $0.old == "none" })
        #expect(changes[2].contains(HistoryEvent.FieldChange(field: "status", old: "completed", new: "active")))
    }

    @Test func aGoalThatBecomesAnotherTypeLosesItsGoalFields() async throws {
        let kb = try Self.knowledgeBase()
        let goal = try await kb.addFact(
            NewFact(content: "Learn Rust", topicPath: "Code", type: .goal, progress: 0.3, targetDate: Self.now)
        ).fact
        let fact = try await kb.updateFact(id: goal.id, FactUpdate(type: .fact))
        #expect(fact.status == nil && fact.progress == nil && fact.targetDate == nil)
    }

    @Test func undoRestoresAGoalsStatusAndProgress() async throws {
        let kb = try Self.knowledgeBase()
        let goal = try await kb.addFact(NewFact(content: "Read 30 books", topicPath: "Books", type: .goal)).fact
        _ = try await kb.updateFact(id: goal.id, FactUpdate(status: .paused, progress: 0.5))
        _ = try await kb.undo()
        let restored = try #require(try await kb.fact(id: goal.id))
        #expect(restored.status == .active && restored.progress == 0)
    }

    @Test func aGoalStatedAgainStaysOneGoalWithItsStatusAndProgress() async throws {
        let kb = try Self.knowledgeBase()
        let goal = try await kb.addFact(
            NewFact(content: "Goal: pass the JLPT N4 exam in December 2025.", topicPath: "Languages", type: .goal)
        ).fact
        _ = try await kb.updateFact(id: goal.id, FactUpdate(progress: 0.6))
        _ = try await kb.addFact(
            NewFact(content: "Goal: pass the JLPT N4 exam in December 2025", topicPath: "Languages", type: .goal))
        let goals = try await kb.facts(matching: FactFilter(types: [.goal]))
        #expect(goals.count == 1)
        #expect(goals.first?.progress == 0.6 && goals.first?.status == .active)
    }

    @Test func ingestReadsGoalFieldsAndLumeGoalRecordsAndRefusesBadValues() async throws {
        let kb = try Self.knowledgeBase()
        let lines = [
            #"{"content": "Run a sub-1:40 half marathon", "type": "goal", "status": "paused", "progress": 0.25, "target_date": "2026-04-01T00:00:00Z"}"#,
            #"{"title": "Meditate daily", "description": "ten minutes every morning", "status": "completed", "progress": 1, "targetDate": "2025-05-01T00:00:00Z", "category": "wellbeing", "created_at": "2025-01-02T00:00:00Z", "updated_at": "2025-05-03T00:00:00Z"}"#,
            #"{"content": "Read more", "type": "goal", "status": "done"}"#,
            #"{"content": "Likes tea", "type": "preference", "progress": 0.5}"#,
            #"{"content": "Swim a mile", "type": "goal", "progress": 2}"#,
        ]
        let report = try await kb.ingest(data: Data(lines.joined(separator: "\n").utf8))
        #expect(report.added == 2)
        #expect(report.rejected.map(\.code) == [.unknownStatus, .notAGoal, .progressOutOfRange])
        #expect(report.rejected[0].reason.contains("expected active, paused, completed or abandoned"))
        let goals = try await kb.facts(matching: FactFilter(types: [.goal]))
        let half = try #require(goals.first { $0.content.hasPrefix("Run") })
        #expect(half.status == .paused && half.progress == 0.25)
        #expect(half.targetDate == Timestamp.parse("2026-04-01T00:00:00Z"))
        let lume = try #require(goals.first { $0.content.hasPrefix("Meditate") })
        #expect(lume.content == "Meditate daily: ten minutes every morning")
        #expect(lume.topicPath == "Wellbeing")
        #expect(lume.status == .completed && lume.completedAt == Timestamp.parse("2025-05-03T00:00:00Z"))
    }

    @Test func exportWritesGoalFieldsThatIngestReadsBack() async throws {
        let kb = try Self.knowledgeBase()
        let goal = try await kb.addFact(
            NewFact(
                content: "Climb a 7a outdoors", topicPath: "Sport", type: .goal, status: .active, progress: 0.5,
                targetDate: Timestamp.parse("2026-06-01T00:00:00Z"))
        ).fact
        let line = ExportLine.encode(goal)
        #expect(line.hasSuffix(#","status":"active","progress":0.5,"target_date":"2026-06-01T00:00:00Z"}"#))
        let copy = try Self.knowledgeBase()
        _ = try await copy.ingest(data: Data(line.utf8))
        let restored = try #require(try await copy.fact(id: goal.id))
        #expect(restored.status == .active && restored.progress == 0.5 && restored.targetDate == goal.targetDate)
    }

    @Test func searchAndListingsFilterGoalsByStatus() async throws {
        let kb = try Self.knowledgeBase()
        let running = try await kb.addFact(NewFact(content: "Run a marathon", topicPath: "Sport", type: .goal)).fact
        let swimming = try await kb.addFact(NewFact(content: "Run a swim meet", topicPath: "Sport", type: .goal)).fact
        _ = try await kb.addFact(NewFact(content: "Run club on Sundays", topicPath: "Sport"))
        _ = try await kb.updateFact(id: swimming.id, FactUpdate(status: .abandoned))
        let active = try await kb.search(SearchQuery("run", mode: .text, filter: FactFilter(statuses: [.active])))
        #expect(active.map(\.fact.id) == [running.id])
        let listed = try await kb.facts(matching: FactFilter(statuses: [.abandoned]))
        #expect(listed.map(\.id) == [swimming.id])
        var parameters = SearchParameters()
        #expect(throws: FilterValueError.self) { try parameters.set(.status, to: "finished") }
    }

    @Test func aPeriodsContextHoldsActiveGoalsGoalsCompletedInTheWindowAndItsExperiences() async throws {
        let kb = try Self.knowledgeBase()
        let day = { (text: String) in Timestamp.parse(text)! }
        _ = try await kb.addFacts(
            [
                NewFact(
                    content: "Pass the JLPT N4 exam", topicPath: "Languages", type: .goal,
                    createdAt: day("2025-01-09T00:00:00Z"), targetDate: day("2025-12-07T00:00:00Z")),
                NewFact(
                    content: "Run a marathon", topicPath: "Sport", type: .goal,
                    createdAt: day("2025-01-06T00:00:00Z"), status: .completed, completedAt: day("2025-06-01T00:00:00Z")
                ),
                NewFact(
                    content: "Learn to juggle", topicPath: "Hobbies", type: .goal,
                    createdAt: day("2024-01-06T00:00:00Z"), status: .completed, completedAt: day("2024-06-01T00:00:00Z")
                ),
                NewFact(
                    content: "Ran the Porto half in 1:45", topicPath: "Sport", type: .experience,
                    createdAt: day("2025-06-02T00:00:00Z")),
                NewFact(
                    content: "Visited Kyoto", topicPath: "Travel", type: .experience,
                    createdAt: day("2025-01-02T00:00:00Z")),
            ], nearDuplicates: nil)
        let period = try await kb.context(window: 30 * 86_400, budget: 300)
        #expect(period.activeGoals.items.map(\.fact.content) == ["Pass the JLPT N4 exam"])
        #expect(period.activeGoals.text.contains("due 2025-12-07"))
        #expect(period.completedGoals.items.map(\.fact.content) == ["Run a marathon"])
        #expect(period.completedGoals.text.contains("(goal, completed 2025-06-01)\n"))
        #expect(period.experiences.items.map(\.fact.content) == ["Ran the Porto half in 1:45"])
        for part in [period.activeGoals, period.completedGoals, period.experiences] {
            #expect(part.budget == 100 && part.tokens <= 100)
        }
        let everything = try await kb.context(window: 100_000 * 30 * 86_400, budget: 300)
        #expect(everything.since == .distantPast)
        #expect(everything.completedGoals.items.count == 2)
    }

    @Test func aFileFromBeforeGoalsOpensWithItsGoalsActiveAndMigrates() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let goal = try await KnowledgeBase(path: path).addFact(
            NewFact(content: "Learn to sail", topicPath: "Hobbies", type: .goal)
        ).fact
        // Take the file back to schema v7: no goal columns, v7's undo triggers.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(
                sql: """
                    DROP INDEX fact_on_namespace_goal_status;
                    DROP TRIGGER fact_log_update; DROP TRIGGER fact_log_delete; DROP TRIGGER fact_log_replace; DROP TRIGGER fact_log_insert;
                    ALTER TABLE fact DROP COLUMN goal_status; ALTER TABLE fact DROP COLUMN goal_progress;
                    ALTER TABLE fact DROP COLUMN target_date; ALTER TABLE fact DROP COLUMN completed_at;
                    DELETE FROM grdb_migrations WHERE identifier = 'goals: status, progress, target date';
                    """)
            try db.execute(sql: Schema.factLogTriggersWithExpiry)
        }
        try queue.close()
        let readOnly = try KnowledgeBase(readingOnly: path)
        let read = try #require(try await readOnly.fact(id: goal.id))
        #expect(read.status == .active && read.progress == 0)
        let writable = try KnowledgeBase(path: path)
        let moved = try await writable.updateFact(id: goal.id, FactUpdate(status: .paused, progress: 0.2))
        #expect(moved.status == .paused && moved.progress == 0.2)
        _ = try await writable.undo()
        #expect(try await writable.fact(id: goal.id)?.status == .active)
    }
}
