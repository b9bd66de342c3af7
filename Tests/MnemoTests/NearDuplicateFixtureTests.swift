import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// The near-duplicate rule against the fixtures' planted pairs, at the cosine similarities that
/// all-MiniLM-L6-v2 gives them (`Fixtures/duplicates.minilm.json`).
@Suite("Near-duplicate rule on planted pairs")
struct NearDuplicateFixtureTests {
    struct Pair: Decodable {
        var a: String
        var b: String
        var cosine: Double
    }

    struct Scores: Decodable {
        var paraphrases: [Pair]
        var distinct: [Pair]
        var maxUnplannedSameType: Pair
    }

    static let scores: Scores = {
        let data = try! Data(contentsOf: ModelFixture.fixtures.appendingPathComponent("duplicates.minilm.json"))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try! decoder.decode(Scores.self, from: data)
    }()

    let rule = NearDuplicateRule()

    @Test func everyPlantedParaphraseMerges() {
        for pair in Self.scores.paraphrases {
            #expect(
                rule.isDuplicate(pair.a, pair.b, typeA: .fact, typeB: .fact, similarity: pair.cosine),
                "\(pair.a) / \(pair.b)")
        }
    }

    @Test func noPlantedLookAlikeMerges() {
        for pair in Self.scores.distinct {
            #expect(
                !rule.isDuplicate(pair.a, pair.b, typeA: .fact, typeB: .fact, similarity: pair.cosine),
                "\(pair.a) / \(pair.b)")
        }
    }

    @Test func theThresholdSitsAboveEveryUnplannedPair() {
        #expect(Self.scores.maxUnplannedSameType.cosine < rule.threshold)
        #expect(Self.scores.paraphrases.allSatisfy { $0.cosine >= rule.threshold })
    }
}
