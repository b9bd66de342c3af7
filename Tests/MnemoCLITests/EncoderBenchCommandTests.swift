import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo
@testable import MnemoEncoder

/// `mnemo bench --encoder`: its options, its errors, and (with the model) its JSON report.
@Suite("mnemo bench --encoder")
struct EncoderBenchCommandTests {
    @Test(
        "encoder options without --encoder, bad values and unknown kernel paths are usage errors",
        arguments: [
            (["bench", "--batch", "8"], "go with --encoder"),
            (["bench", "--encoder", "--batch", "0"], "--batch must be at least 1"),
            (["bench", "--encoder", "--rounds", "0"], "--rounds must be at least 1"),
            (["bench", "--encoder", "--dedupe", "10"], "choose one"),
            (["bench", "--encoder", "--kernels", "sse9"], "--kernels sse9 is not a kernel path"),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try CLIRunner.run(arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test(
        "a kernel path this CPU cannot run is refused, by --kernels and by MNEMO_KERNELS",
        .enabled(
            if: KernelInstructionSet.available != KernelInstructionSet.allCases,
            "this CPU runs every kernel path"))
    func unavailableKernels() throws {
        for path in KernelInstructionSet.allCases where !KernelInstructionSet.available.contains(path) {
            let option = try CLIRunner.run(["bench", "--encoder", "--kernels", path.rawValue])
            #expect(option.status != 0)
            #expect(
                option.stderr.contains("--kernels \(path.rawValue) is not available on this CPU"), "\(option.stderr)")
            let variable = try CLIRunner.run(["bench", "--encoder"], environment: ["MNEMO_KERNELS": path.rawValue])
            #expect(variable.status != 0)
            #expect(
                variable.stderr.contains("MNEMO_KERNELS=\(path.rawValue) is not available on this CPU"),
                "\(variable.stderr)")
        }
    }

    @Test("MNEMO_KERNELS naming no kernel path stops any command before it starts")
    func unknownKernelsVariable() throws {
        let result = try CLIRunner.run(["stats"], environment: ["MNEMO_KERNELS": "sse9"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("MNEMO_KERNELS=sse9 is not a kernel path"), "\(result.stderr)")
        let empty = try CLIRunner.run(["bench", "--batch", "8"], environment: ["MNEMO_KERNELS": ""])
        #expect(empty.stderr.contains("go with --encoder"), "an empty MNEMO_KERNELS asks for nothing")
    }

    @Test("without a model it says how to install one")
    func noModel() throws {
        let result = try CLIRunner.run(["bench", "--encoder"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("mnemo model install"), "\(result.stderr)")
    }

    @Test("a texts file with no text is an error naming the file")
    func emptyTexts() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-empty-\(UUID().uuidString).txt")
        try Data("\n  \n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try CLIRunner.run(["bench", "--encoder", "--texts", file.path])
        #expect(result.status != 0)
        #expect(result.stderr.contains(file.path), "\(result.stderr)")
    }

    @Test(
        "--json reports texts, tokens, batch, threads, kernel path and speeds, on every path",
        .enabled(if: ModelFixture.shouldRunModelTests, ModelFixture.skipReason),
        arguments: KernelInstructionSet.available)
    func jsonReport(path: KernelInstructionSet) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-texts-\(UUID().uuidString).txt")
        try Data("I drink tea instead of coffee\n\nmy aunt lives in Braga\nI ran 10 km on Sunday\n".utf8).write(
            to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try CLIRunner.run(
            [
                "bench", "--encoder", "--texts", file.path, "--batch", "2", "--threads", "1", "--rounds", "1",
                "--kernels", path.rawValue, "--json",
            ],
            environment: ["MNEMO_MODEL": try ModelFixture.requireModel().path])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require((try result.json() as? [String: Any])?["encoder"] as? [String: Any])
        #expect(report["texts"] as? Int == 3)
        let tokenizer = try WordPieceTokenizer(modelDirectory: ModelFixture.requireModel())
        let expectedTokens = ["i drink tea instead of coffee", "my aunt lives in braga", "i ran 10 km on sunday"]
            .reduce(0) { $0 + tokenizer.encode($1).count }
        #expect(expectedTokens > 3 * 2 + 15)
        #expect(report["tokens"] as? Int == expectedTokens)
        #expect(report["batch"] as? Int == 2)
        #expect(report["threads"] as? Int == 1)
        #expect(report["isa"] as? String == path.description)
        #expect((report["sentences_per_second"] as? Double ?? 0) > 0)
        #expect((report["single_p50_ms"] as? Double ?? 0) > 0)
    }
}
