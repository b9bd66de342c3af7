import ArgumentParser
import Foundation
import Mnemo
import MnemoEncoder

extension BenchCommand {
    /// `mnemo bench --encoder`: times the installed sentence encoder (see ``EncoderBenchmark``).
    func runEncoder() throws {
        // The texts first: a bad file is reported whether or not a model is installed.
        let texts = try textsFile.map(EncoderBenchmark.texts(inFile:)) ?? EncoderBenchmark.fixtureTexts()
        let directory = ModelFolder.modelDirectory
        guard ModelFolder.isInstalled(at: directory) else {
            throw CLIError("no embedding model at \(directory.path); run `mnemo model install` or set MNEMO_MODEL")
        }
        let encoder = try SentenceEncoder(
            modelDirectory: directory, batchSize: batch, threadCount: threads,
            instructionSet: try kernels.map { try KernelInstructionSet.named($0, source: "--kernels \($0)") }
                ?? .preferred)
        let status = StatusLine.forTerminal()
        let report = EncoderBenchmark(texts: texts, encoder: encoder, rounds: rounds).run {
            status?.show($0, force: true)
        }
        status?.finish()
        if global.json {
            try Output.json(["encoder": report])
            return
        }
        print(
            """
            encoder \(encoder.identity.name), kernels \(report.isa), \(report.threads) threads, batch \(report.batch)
            \(report.texts) texts, \(report.tokens) tokens
            throughput: \(String(format: "%.1f", report.sentencesPerSecond)) sentences/s (median of \(report.rounds) round\(report.rounds == 1 ? "" : "s"); \
            best \(String(format: "%.1f", report.bestSentencesPerSecond)))
            one text alone: p50 \(String(format: "%.2f", report.singleP50Ms)) ms, p95 \(String(format: "%.2f", report.singleP95Ms)) ms
            """)
    }

    /// Checks the encoder options (called from ``validate()``).
    func validateEncoderOptions() throws {
        guard encoder else {
            if textsFile != nil || batch != 32 || threads != nil || kernels != nil || rounds != 5 {
                throw ValidationError("--texts, --batch, --threads, --kernels and --rounds go with --encoder")
            }
            return
        }
        guard dedupe == nil else { throw ValidationError("--encoder and --dedupe are separate benchmarks; choose one") }
        guard batch >= 1 else { throw ValidationError("--batch must be at least 1") }
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
        if let kernels {
            do {
                _ = try KernelInstructionSet.named(kernels, source: "--kernels \(kernels)")
            } catch {
                throw ValidationError(error.description)
            }
        }
    }
}
