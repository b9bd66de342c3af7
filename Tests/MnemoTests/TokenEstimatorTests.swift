import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

@Suite("Token estimator")
struct TokenEstimatorTests {
    struct Sample: Decodable {
        var source: String
        var text: String
        var cl100kBase: Int
        var o200kBase: Int
        var real: Int { max(cl100kBase, o200kBase) }
    }

    /// Texts counted by OpenAI's tokenizers (`Scripts/token-estimate/measure.py`).
    static func samples() throws -> [Sample] {
        let text = try String(
            contentsOf: ModelFixture.fixtures.appendingPathComponent("token-counts.jsonl"), encoding: .utf8)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try text.split(separator: "\n").map { try decoder.decode(Sample.self, from: Data($0.utf8)) }
    }

    @Test func everyGroupOfTextsIsOverEstimated() throws {
        let samples = try Self.samples()
        let estimator = TokenEstimator()
        let groups = Dictionary(grouping: samples, by: \.source)
        #expect(Set(groups.keys).isSuperset(of: ["fixtures", "accented", "cjk", "reference"]))
        for (source, group) in groups {
            let estimated = group.reduce(0) { $0 + estimator.count($1.text) }
            let real = group.reduce(0) { $0 + $1.real }
            #expect(
                Double(estimated) >= 1.3 * Double(real), "\(source): \(estimated) estimated for \(real) real tokens")
        }
    }

    @Test func noTextIsUnderEstimatedByMoreThanAnEighth() throws {
        let estimator = TokenEstimator()
        var under = 0
        for sample in try Self.samples() {
            let estimate = estimator.count(sample.text)
            #expect(Double(estimate) >= 0.875 * Double(sample.real), "\(sample.text): \(estimate) for \(sample.real)")
            if estimate < sample.real { under += 1 }
        }
        #expect(under <= 3)
    }

    @Test func countsFollowTheDocumentedCosts() {
        let estimator = TokenEstimator()
        #expect(estimator.count("") == 0)
        #expect(estimator.count("a") == 1)
        #expect(estimator.count("hello") == 2) // 1.8
        #expect(estimator.count("I run") == 3) // 1 + 1.4, the space joining "run"
        #expect(estimator.count("1234567") == 3)
        #expect(estimator.count(" ") == 1)
        #expect(estimator.count("a  b") == 3)
        #expect(estimator.count("é") == 2)
        #expect(estimator.count("東京") == 4)
        #expect(estimator.count("🍕") == 3)
        #expect(estimator.count("**Health**\n") == 7)
    }

    @Test func theCountOfAJoinedTextIsAtMostTheSumOfItsPartsPlusTheJoint() {
        // The context packer adds items' costs: that sum must bound the whole text's estimate.
        let estimator = TokenEstimator()
        let parts = ["- Lives in Porto (fact, 2025-05-01)\n", "## Family\n", "東京に住んでいます。\n", "12 km at 7:30\n"]
        let whole = estimator.count(parts.joined())
        #expect(whole <= parts.reduce(0) { $0 + estimator.count($1) })
    }
}
