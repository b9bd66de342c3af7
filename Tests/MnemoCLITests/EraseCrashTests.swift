import Foundation
import MnemoTestSupport
import Testing

/// SIGKILL during `mnemo forget` and `mnemo fact erase`: the erase is done or not done, never
/// half; `mnemo check` is clean after every kill; a rerun finishes the job.
@Suite("Erase crash safety", .serialized)
struct EraseCrashTests {
    static let victimFacts = 4_000

    /// A database with a victim namespace of a few thousand facts and a bystander's few.
    static let base: String = {
        let folder = try! TestKnowledgeBase.temporaryFolder()
        var lines: [String] = []
        let topics = ["Health/Running", "Health/Sleep", "Work/Projects", "Travel", "Food/Baking", "Family"]
        for i in 0..<victimFacts {
            lines.append(
                #"{"namespace": "victim", "topic": "\#(topics[i % topics.count])", "content": "Victim note \#(i): met Quillonfeather at stop \#(i * 7) near gate \#(i % 97)"}"#
            )
        }
        for i in 0..<200 {
            lines.append(
                #"{"namespace": "bystander", "topic": "Travel", "content": "Bystander note \#(i): took the train to stop \#(i * 3)"}"#
            )
        }
        let input = folder.appendingPathComponent("facts.jsonl")
        try! lines.joined(separator: "\n").write(to: input, atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("base.sqlite").path
        // Without embeddings: the hashing embedder's near-duplicate checks make a debug ingest of
        // thousands of facts take minutes (the vectors would be one more table in the same
        // transaction; ErasureTests covers them).
        let ingest = try! CLIRunner.run([
            "ingest", input.path, "--db", path, "--namespaces-from-records", "--no-embeddings",
        ])
        precondition(ingest.status == 0, ingest.stderr)
        return path
    }()

    /// A fresh copy of the base database (the base's WAL is checkpointed when its writer closed).
    static func copy() throws -> String {
        let path = try TestKnowledgeBase.temporaryPath()
        try FileManager.default.copyItem(atPath: base, toPath: path)
        return path
    }

    static func factCount(_ namespace: String, _ path: String) throws -> Int {
        let stats = try #require(
            try CLIRunner.run(["stats", "--namespace", namespace, "--db", path, "--json"]).json() as? [String: Any])
        return try #require(stats["facts"] as? Int)
    }

    /// Starts `mnemo arguments`, kills it with SIGKILL after `delay`, and says whether it was
    /// still running then.
    static func kill(_ arguments: [String], after delay: Duration) throws -> Bool {
        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["MNEMO_MODEL"] =
            FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-no-model").path
        environment["MNEMO_DB"] = nil
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal
    }

    /// Kills `mnemo forget` at growing delays, each time on a fresh copy. The processes run on a
    /// thread of their own (`ThreadJob`): this test takes a minute, and blocking one of the two
    /// threads Swift concurrency runs the tests on for that long starved the others.
    @Test func killedForgetIsDoneOrNotDoneAndARerunFinishes() async throws {
        let total = try Self.factCount("victim", Self.base)
        #expect(total > Self.victimFacts / 2)
        var landed = 0
        var outcomes: [Int: Int] = [:]
        // A release build erases 4,000 facts in about a tenth of a second: the first delays are short.
        for delay in [10, 20, 30, 45, 60, 80, 100, 130, 160, 200, 300, 400, 650, 1_000] {
            let round = try await ThreadJob { try Self.killForget(after: delay) }.value
            if round.landed { landed += 1 }
            #expect(
                round.check.status == 0,
                "check after a kill at \(delay) ms: \(round.check.stdout) \(round.check.stderr)")
            #expect(
                round.left == total || round.left == 0, "a kill at \(delay) ms left \(round.left) of \(total) facts")
            outcomes[round.left, default: 0] += 1
            #expect(round.bystanders == 200)
            #expect(round.rerun.status == 0, "\(round.rerun.stderr)")
            #expect(round.leftAfterRerun == 0)
            #expect(round.checkAfterRerun == 0)
            #expect(round.traces == [])
        }
        // The kills must have hit running erases, or the test shows nothing.
        #expect(landed >= 3, "only \(landed) kills landed while mnemo ran; outcomes \(outcomes)")
    }

    /// What one round of ``killedForgetIsDoneOrNotDoneAndARerunFinishes()`` saw.
    struct ForgetRound: Sendable {
        var landed: Bool
        var check: CLIRunner.Result
        var left: Int
        var bystanders: Int
        var rerun: CLIRunner.Result
        var leftAfterRerun: Int
        var checkAfterRerun: Int32
        var traces: [String]
    }

    /// On a fresh copy: `mnemo forget` killed after `delay` ms, the check, the counts, the rerun.
    static func killForget(after delay: Int) throws -> ForgetRound {
        let path = try copy()
        let landed = try kill(["forget", "--yes", "--namespace", "victim", "--db", path], after: .milliseconds(delay))
        let check = try CLIRunner.run(["check", "--db", path])
        let (left, bystanders) = (try factCount("victim", path), try factCount("bystander", path))
        let rerun = try CLIRunner.run(["forget", "--yes", "--namespace", "victim", "--db", path])
        return ForgetRound(
            landed: landed, check: check, left: left, bystanders: bystanders, rerun: rerun,
            leftAfterRerun: try factCount("victim", path),
            checkAfterRerun: try CLIRunner.run(["check", "--db", path]).status,
            traces: try FileTraces(databaseAt: path).found(["Quillonfeather"]))
    }

    @Test func killedFactEraseIsDoneOrNotDone() throws {
        let path = try Self.copy()
        let search = try #require(
            try CLIRunner.run([
                "search", "Victim note 17", "--mode", "text", "--namespace", "victim",
                "--db", path, "--json", "--limit", "50",
            ]).json() as? [String: Any])
        let ids = try #require((search["results"] as? [[String: Any]])?.compactMap { $0["id"] as? Int })
        #expect(ids.count == 50)
        let total = try Self.factCount("victim", path)
        _ = try Self.kill(
            ["fact", "erase"] + ids.map(String.init) + ["--namespace", "victim", "--db", path],
            after: .milliseconds(300))
        #expect(try CLIRunner.run(["check", "--db", path]).status == 0)
        let left = try Self.factCount("victim", path)
        #expect(left == total || left == total - ids.count, "left \(left) of \(total)")
        let rerun = try CLIRunner.run(
            ["fact", "erase"] + ids.map(String.init) + ["--namespace", "victim", "--db", path])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try Self.factCount("victim", path) == total - ids.count)
    }
}
