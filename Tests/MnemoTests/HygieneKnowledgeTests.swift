import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo
@testable import MnemoEncoder

/// The near-duplicate rule on every pair of the fixture knowledge base, with real
/// all-MiniLM-L6-v2 similarities: a precision check on text the rule was not written against.
@Suite(
    "Near-duplicate rule on every fixture pair", .enabled(if: ModelFixture.shouldRunModelTests, ModelFixture.skipReason)
)
struct HygieneKnowledgeTests {
    struct Planted: Decodable {
        var exact: [[String]]
        var paraphrases: [[String]]
    }

    @Test func noUnplantedPairOfTheKnowledgeBaseMerges() throws {
        let encoder = try SentenceEncoder(modelDirectory: ModelFixture.requireModel())
        let facts = try FixtureKnowledgeBase.facts()
        let vectors = encoder.encode(facts.map(\.content))
        let planted = try JSONDecoder().decode(
            Planted.self, from: Data(contentsOf: ModelFixture.fixtures.appendingPathComponent("duplicates.json")))
        let allowed = Set((planted.exact + planted.paraphrases).map { Set($0) })
        let rule = NearDuplicateRule()
        var merged: [String] = []
        var conflicts = 0
        var closestProven: (Double, String)?
        let parsed = facts.map { ParsedFact($0.content) }
        for i in facts.indices {
            for j in facts.indices where j > i && facts[i].type == facts[j].type {
                var similarity = 0.0
                for (x, y) in zip(vectors[i], vectors[j]) { similarity += Double(x) * Double(y) }
                let check = IdentityCheck(parsed[i], parsed[j])
                if check.identityProven, check.difference == nil,
                    !allowed.contains([facts[i].content, facts[j].content]),
                    similarity > (closestProven?.0 ?? -1)
                {
                    closestProven = (similarity, "\(facts[i].content) / \(facts[j].content)")
                }
                switch rule.verdict(
                    facts[i].content, facts[j].content, typeA: facts[i].type, typeB: facts[j].type,
                    similarity: similarity)
                {
                case .duplicate where !allowed.contains([facts[i].content, facts[j].content]):
                    merged.append(String(format: "%.3f  %@  /  %@", similarity, facts[i].content, facts[j].content))
                case .conflict:
                    conflicts += 1
                default:
                    break
                }
            }
        }
        print("knowledge.jsonl: \(facts.count) facts, \(conflicts) close pairs kept as conflicts")
        // What the value-match threshold must stay above.
        if let (similarity, pair) = closestProven {
            print(String(format: "closest unplanned pair whose values or preference match: %.3f  ", similarity) + pair)
        }
        #expect(merged.isEmpty, "unplanned pairs merged:\n\(merged.joined(separator: "\n"))")
    }
}
