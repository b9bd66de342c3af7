import Foundation
import MnemoTestSupport
import Testing

/// Ctrl-C during `mnemo eval` stops it with its scratch database deleted: a run killed by the
/// signal's default action left a copy of the whole corpus in the temporary folder.
@Suite("Interrupting mnemo eval")
struct EvalInterruptTests {
    @Test func ctrlCStopsTheRunAndLeavesNoScratchDatabase() throws {
        let folder = try TestKnowledgeBase.temporaryFolder()
        let dataset = try Self.writeDataset(in: folder, documents: 20_000, queries: 5_000)
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)

        let process = Process()
        process.executableURL = CLIRunner.binary
        process.arguments = ["eval", "--beir", dataset.path, "--mode", "text", "--no-cache"]
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary.path
        process.environment = environment
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let started = Date()
        while try Self.scratch(in: temporary).isEmpty, process.isRunning, Date().timeIntervalSince(started) < 60 {
            Thread.sleep(forTimeInterval: 0.02)
        }
        try #require(process.isRunning, "the run ended before it could be interrupted")
        #expect(try !Self.scratch(in: temporary).isEmpty)
        kill(process.processIdentifier, SIGINT)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        #expect(message.contains("interrupted"), "\(message)")
        #expect(try Self.scratch(in: temporary).isEmpty)
    }

    static func scratch(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("mnemo-eval-") }
    }

    /// A BEIR folder of `documents` short texts and `queries` judged queries: enough for a run of
    /// several seconds in text mode.
    static func writeDataset(in folder: URL, documents: Int, queries: Int) throws -> URL {
        let dataset = folder.appendingPathComponent("synthetic")
        try FileManager.default.createDirectory(
            at: dataset.appendingPathComponent("qrels"), withIntermediateDirectories: true)
        let words = ["river", "garden", "piano", "marathon", "coffee", "lisbon", "kotlin", "swift", "dentist", "bike"]
        func text(_ n: Int) -> String { (0..<6).map { words[(n / (1 << $0)) % words.count] }.joined(separator: " ") }
        try (0..<documents).map { #"{"_id": "d\#($0)", "title": "", "text": "note \#($0) \#(text($0))"}"# }
            .joined(separator: "\n").write(
                to: dataset.appendingPathComponent("corpus.jsonl"), atomically: true, encoding: .utf8)
        try (0..<queries).map { #"{"_id": "q\#($0)", "text": "\#(text($0 * 7))"}"# }
            .joined(separator: "\n").write(
                to: dataset.appendingPathComponent("queries.jsonl"), atomically: true, encoding: .utf8)
        try (["query-id\tcorpus-id\tscore"] + (0..<queries).map { "q\($0)\td\($0 * 3 % documents)\t1" })
            .joined(separator: "\n").write(
                to: dataset.appendingPathComponent("qrels/test.tsv"), atomically: true, encoding: .utf8)
        return dataset
    }
}
