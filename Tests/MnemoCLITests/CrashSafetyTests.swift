import Foundation
import MnemoTestSupport
import Testing

/// The short form of `Scripts/crash-safety/crash-test.sh`: a few SIGKILLs of `mnemo ingest`,
/// `merge`, `dedupe` and `reembed` at random moments, `mnemo check` after each, then a rerun
/// that must converge to the export of one clean run. The long form (≥ 50 kills) is the script.
@Suite("Crash safety (short form)")
struct CrashSafetyTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The script runs on a thread of its own (`ThreadJob`): it takes a minute, and blocking one
    /// of the two threads Swift concurrency runs the tests on for that long starved the others.
    @Test func killedJobsLeaveACleanDatabaseThatConverges() async throws {
        let script = Self.repository.appendingPathComponent("Scripts/crash-safety/crash-test.sh")
        try #require(FileManager.default.fileExists(atPath: script.path))
        var environment = ProcessInfo.processInfo.environment
        environment["MNEMO"] = CLIRunner.binary.path
        environment["MNEMO_MODEL"] =
            FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-no-model").path
        environment["MAX_DELAY_MS"] = "600"
        environment["SEED"] = "7"
        let (status, text) = try await ThreadJob { [environment] in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [script.path, "8", "400"]
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }.value
        #expect(status == 0, "\(text)")
        #expect(text.contains("converged"), "\(text)")
    }
}
