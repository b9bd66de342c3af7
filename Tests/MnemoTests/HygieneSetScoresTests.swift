import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo
@testable import MnemoEncoder

/// Keeps `Fixtures/hygiene.minilm.json` honest: the stored cosines are what the project's own
/// encoder gives the pairs of `Fixtures/hygiene.json`.
///
/// To regenerate the scores after editing the pairs:
/// `MNEMO_WRITE_HYGIENE_SCORES=1 swift test --filter HygieneSetScoresTests`.
@Suite("Planted hygiene set scores", .enabled(if: ModelFixture.shouldRunModelTests, ModelFixture.skipReason))
struct HygieneSetScoresTests {
    @Test func storedCosinesAreTheEncodersCosines() throws {
        let encoder = try SentenceEncoder(modelDirectory: ModelFixture.requireModel())
        let pairs = try HygieneSet.load(HygieneSet.pairsURL)
        func scored(_ list: [HygieneSet.Pair]) -> [HygieneSet.Pair] {
            let vectors = encoder.encode(list.flatMap { [$0.a, $0.b] })
            return list.enumerated().map { index, pair in
                var pair = pair
                let (a, b) = (vectors[2 * index], vectors[2 * index + 1])
                let cosine = zip(a, b).reduce(0) { $0 + Double($1.0) * Double($1.1) }
                pair.cosine = (cosine * 1000).rounded() / 1000
                return pair
            }
        }
        var computed = pairs
        computed.about = "all-MiniLM-L6-v2 cosines of the pairs of hygiene.json, from Mnemo's SentenceEncoder."
        computed.model = "sentence-transformers/all-MiniLM-L6-v2 (mean pooling, normalized)"
        computed.duplicates = scored(pairs.duplicates)
        computed.distinct = scored(pairs.distinct)
        computed.heldOut = HygieneSet.Part(
            duplicates: scored(pairs.heldOut.duplicates), distinct: scored(pairs.heldOut.distinct))
        computed.heldOut2 = HygieneSet.Part(
            duplicates: scored(pairs.heldOut2.duplicates), distinct: scored(pairs.heldOut2.distinct))

        if ProcessInfo.processInfo.environment["MNEMO_WRITE_HYGIENE_SCORES"] != nil {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try (encoder.encode(computed) + Data("\n".utf8)).write(to: HygieneSet.scoresURL)
        }
        let stored = try HygieneSet.load(HygieneSet.scoresURL)
        func all(_ file: HygieneSet.File) -> [HygieneSet.Pair] {
            file.duplicates + file.distinct + file.heldOut.duplicates + file.heldOut.distinct + file.heldOut2.duplicates
                + file.heldOut2.distinct
        }
        #expect(all(computed).count == all(stored).count, "hygiene.minilm.json is out of date: regenerate it")
        for (mine, theirs) in zip(all(computed), all(stored)) {
            #expect(mine.a == theirs.a && mine.b == theirs.b, "hygiene.minilm.json is out of date: regenerate it")
            #expect(abs((mine.cosine ?? 0) - (theirs.cosine ?? 0)) <= 0.002, "\(mine.a) / \(mine.b)")
        }
        #expect(stored.duplicates.count == pairs.duplicates.count && stored.distinct.count == pairs.distinct.count)
    }
}
