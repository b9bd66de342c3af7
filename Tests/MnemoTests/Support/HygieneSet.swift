import Foundation

@testable import Mnemo

/// The planted near-duplicate set (`Fixtures/hygiene.json`) and its all-MiniLM-L6-v2
/// cosines (`Fixtures/hygiene.minilm.json`), so the rule's tests run without the model.
enum HygieneSet {
    struct Pair: Codable, Hashable {
        var `class`: String
        var type: FactType
        var a: String
        var b: String
        var cosine: Double?
    }

    struct Part: Codable {
        var duplicates: [Pair]
        var distinct: [Pair]
    }

    struct File: Codable {
        var about: String?
        var model: String?
        var duplicates: [Pair]
        var distinct: [Pair]
        var heldOut: Part
        /// Written after the first held-out measurement, before the changes it prompted.
        var heldOut2: Part

        enum CodingKeys: String, CodingKey {
            case about, model, duplicates, distinct
            case heldOut = "held_out"
            case heldOut2 = "held_out_2"
        }

        var development: Part { Part(duplicates: duplicates, distinct: distinct) }
    }

    static let pairsURL = ModelFixture.fixtures.appendingPathComponent("hygiene.json")
    static let scoresURL = ModelFixture.fixtures.appendingPathComponent("hygiene.minilm.json")

    static func load(_ url: URL) throws -> File {
        try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
    }

    /// How a rule does on a part of the set: merged duplicates and merged look-alikes.
    struct Figures: CustomStringConvertible {
        var mergedDuplicates: [Pair] = []
        var missedDuplicates: [Pair] = []
        var mergedLookAlikes: [Pair] = []
        var keptLookAlikes = 0

        var precision: Double {
            let merged = mergedDuplicates.count + mergedLookAlikes.count
            return merged == 0 ? 1 : Double(mergedDuplicates.count) / Double(merged)
        }

        var recall: Double {
            Double(mergedDuplicates.count) / Double(max(1, mergedDuplicates.count + missedDuplicates.count))
        }

        var description: String {
            let total = mergedDuplicates.count + missedDuplicates.count
            let lookAlikes = mergedLookAlikes.count + keptLookAlikes
            return String(
                format: "precision %.3f, recall %.3f (%d of %d duplicates merged, %d of %d look-alikes merged)",
                precision, recall, mergedDuplicates.count, total, mergedLookAlikes.count, lookAlikes)
        }
    }

    static func figures(of rule: NearDuplicateRule, on part: Part) -> Figures {
        var figures = Figures()
        for pair in part.duplicates {
            if rule.isDuplicate(pair.a, pair.b, typeA: pair.type, typeB: pair.type, similarity: pair.cosine ?? 0) {
                figures.mergedDuplicates.append(pair)
            } else {
                figures.missedDuplicates.append(pair)
            }
        }
        for pair in part.distinct {
            if rule.isDuplicate(pair.a, pair.b, typeA: pair.type, typeB: pair.type, similarity: pair.cosine ?? 0) {
                figures.mergedLookAlikes.append(pair)
            } else {
                figures.keptLookAlikes += 1
            }
        }
        return figures
    }
}
