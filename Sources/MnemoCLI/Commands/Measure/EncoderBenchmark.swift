import Foundation
import Mnemo
import MnemoEncoder
import MnemoEvaluation

/// `mnemo bench --encoder`: the sentence encoder's throughput on a list of texts, and the latency
/// of one text at a time, as a query is encoded.
struct EncoderBenchmark {
    /// What `--json` prints, under the key `encoder`.
    struct Report: Encodable {
        /// The number of texts.
        var texts: Int
        /// Their tokens, `[CLS]` and `[SEP]` included.
        var tokens: Int
        var batch: Int
        var threads: Int
        /// The kernel path of the matrix products (`avx2+fma`, `portable (sse2)`…).
        var isa: String
        /// Texts per second encoding all of them in batches: the median of the timed rounds.
        var sentencesPerSecond: Double
        /// The best round.
        var bestSentencesPerSecond: Double
        var rounds: Int
        /// The median time to encode one text alone, over every text.
        var singleP50Ms: Double
        var singleP95Ms: Double
    }

    let texts: [String]
    let encoder: SentenceEncoder
    let rounds: Int

    /// Runs one untimed warm-up pass, `rounds` timed passes over all texts, then every text alone.
    func run(progress: (String) -> Void) -> Report {
        let tokens = texts.reduce(0) { total, text in
            total
                + encoder.tokenizer.encode(
                    encoder.configuration.lowercasesInput ? text.lowercased() : text,
                    maxLength: encoder.configuration.maxSequenceLength
                ).count
        }
        let clock = ContinuousClock()
        progress("warming up…")
        _ = encoder.encode(texts)
        var times: [Duration] = []
        for round in 1...rounds {
            progress("round \(round) of \(rounds)…")
            let start = clock.now
            _ = encoder.encode(texts)
            times.append(clock.now - start)
        }
        progress("encoding \(texts.count) texts one at a time…")
        let single = LatencyStats(
            samples: texts.map { text in
                let start = clock.now
                _ = encoder.encode([text])
                return clock.now - start
            })
        times.sort()
        let rate = { (time: Duration) in Double(texts.count) / (time.milliseconds / 1000) }
        return Report(
            texts: texts.count, tokens: tokens, batch: encoder.batchSize, threads: encoder.threadCount,
            isa: encoder.instructionSet.description,
            sentencesPerSecond: rate(times[(times.count - 1) / 2]), bestSentencesPerSecond: rate(times[0]),
            rounds: rounds, singleP50Ms: single.p50.milliseconds, singleP95Ms: single.p95.milliseconds)
    }

    /// The texts of `--texts FILE`: its non-blank lines.
    static func texts(inFile path: String) throws -> [String] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CLIError("cannot read \(path): \(error.localizedDescription)")
        }
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        guard !lines.isEmpty else { throw CLIError("\(path) has no text lines to encode") }
        return lines
    }

    /// The default texts: the `content` of every fact of the sample memory, Fixtures/knowledge.jsonl.
    static func fixtureTexts() throws -> [String] {
        let file = try DemoCommand.sampleFile()
        let lines = try String(contentsOf: file, encoding: .utf8).split(whereSeparator: \.isNewline)
        struct Line: Decodable { var content: String }
        let texts = try lines.enumerated().map { index, line in
            do {
                return try JSONDecoder().decode(Line.self, from: Data(line.utf8)).content
            } catch {
                throw CLIError("\(file.path):\(index + 1): not a fact with a \"content\" string")
            }
        }
        guard !texts.isEmpty else { throw CLIError("\(file.path) holds no facts") }
        return texts
    }
}
