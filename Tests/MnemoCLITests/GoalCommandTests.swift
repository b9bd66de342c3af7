import Foundation
import MnemoTestSupport
import Testing

/// Goals at the command line: `fact update --status/--progress`, `search --status`,
/// `context --window`, and the context budget's one check.
@Suite("Goal commands")
struct GoalCommandTests {
    static func database() throws -> String {
        let folder = try TestKnowledgeBase.temporaryFolder()
        let file = folder.appendingPathComponent("goals.jsonl")
        let lines = [
            #"{"topic": "Languages", "content": "Pass the JLPT N4 exam in December", "type": "goal", "progress": 0.4}"#,
            #"{"topic": "Sport", "content": "Run the Porto marathon", "type": "goal", "status": "abandoned"}"#,
            #"{"topic": "Sport", "content": "Ran 10 km along the river", "type": "experience"}"#,
        ]
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("kb.sqlite").path
        let ingest = try CLIRunner.run(["ingest", file.path, "--db", path])
        precondition(ingest.status == 0, ingest.stderr)
        return path
    }

    static func id(of text: String, in path: String) throws -> Int {
        let search = try CLIRunner.run(["search", text, "--mode", "text", "--db", path, "--json"])
        let results = try #require((try search.json() as? [String: Any])?["results"] as? [[String: Any]])
        return try #require(results.first?["id"] as? Int)
    }

    @Test func factUpdateSetsStatusAndProgressAndTheHistoryShowsIt() throws {
        let path = try Self.database()
        let id = try Self.id(of: "JLPT", in: path)
        let update = try CLIRunner.run([
            "fact", "update", String(id), "--status", "completed", "--progress", "1", "--db", path, "--json",
        ])
        #expect(update.status == 0, "\(update.stderr)")
        let fact = try #require(try update.json() as? [String: Any])
        #expect(fact["status"] as? String == "completed")
        #expect(fact["progress"] as? Double == 1)
        #expect(fact["completed_at"] is String)
        let history = try CLIRunner.run(["history", String(id), "--db", path])
        #expect(history.stdout.contains("active → completed"), "\(history.stdout)")
        #expect(history.stdout.contains("0.4 → 1.0"), "\(history.stdout)")

        let wrong = try CLIRunner.run(["fact", "update", String(id), "--status", "done", "--db", path])
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains(#"unknown status "done" (expected active, paused, completed or abandoned"#))
        let notGoal = try Self.id(of: "river", in: path)
        let refused = try CLIRunner.run(["fact", "update", String(notGoal), "--progress", "0.5", "--db", path])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("only a goal has a progress"), "\(refused.stderr)")
    }

    @Test func searchFiltersGoalsByStatus() throws {
        let path = try Self.database()
        let search = try CLIRunner.run(["search", "marathon JLPT", "--status", "active", "--db", path, "--json"])
        #expect(search.status == 0, "\(search.stderr)")
        let results = try #require((try search.json() as? [String: Any])?["results"] as? [[String: Any]])
        #expect(results.map { $0["content"] as? String } == ["Pass the JLPT N4 exam in December"])
    }

    @Test func contextWindowPrintsTheThreeParts() throws {
        let path = try Self.database()
        let period = try CLIRunner.run(["context", "--window", "30d", "--budget", "600", "--db", path, "--json"])
        #expect(period.status == 0, "\(period.stderr)")
        let object = try #require(try period.json() as? [String: Any])
        let active = try #require(object["active_goals"] as? [String: Any])
        #expect(
            (active["context"] as? String)?.contains("Pass the JLPT N4 exam in December (goal, progress 40 %") == true)
        let experiences = try #require(object["experiences"] as? [String: Any])
        #expect((experiences["items"] as? [[String: Any]])?.count == 1)
        #expect((object["completed_goals"] as? [String: Any])?["budget"] as? Int == 200)
    }

    @Test func theContextBudgetIsCheckedAsEveryDoorChecksIt() throws {
        let path = try Self.database()
        let result = try CLIRunner.run(["context", "plans", "--budget", "300000", "--db", path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("budget takes a whole number of tokens from 0 to 200000, not 300000"))
    }
}
