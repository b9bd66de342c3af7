import Foundation
import Mnemo

/// The planted near-duplicate set (`Fixtures/hygiene.json`) and its all-MiniLM-L6-v2
/// cosines (`Fixtures/hygiene.minilm.json`), so the rule's tests run without the model.
package enum HygieneSet {
    package struct Pair: Codable, Hashable {
        package var `class`: String
        package var type: FactType
        package var a: String
        package var b: String
        package var cosine: Double?
    }

    package struct Part: Codable {
        package var duplicates: [Pair]
        package var distinct: [Pair]

        package init(duplicates: [Pair], distinct: [Pair]) {
            self.duplicates = duplicates
            self.distinct = distinct
        }
    }

    package struct File: Codable {
        package var about: String?
        package var model: String?
        package var duplicates: [Pair]
        package var distinct: [Pair]
        package var heldOut: Part
        /// Written after the first held-out measurement, before the changes it prompted.
        package var heldOut2: Part

        package enum CodingKeys: String, CodingKey {
            case about, model, duplicates, distinct
            case heldOut = "held_out"
            case heldOut2 = "held_out_2"
        }

        package var development: Part { Part(duplicates: duplicates, distinct: distinct) }
    }

    package static let pairsURL = ModelFixture.fixtures.appendingPathComponent("hygiene.json")
    package static let scoresURL = ModelFixture.fixtures.appendingPathComponent("hygiene.minilm.json")

    package static func load(_ url: URL) throws -> File {
        try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
    }

    /// How a rule does on a part of the set: merged duplicates and merged look-alikes.
    package struct Figures: CustomStringConvertible {
        package var mergedDuplicates: [Pair] = []
        package var missedDuplicates: [Pair] = []
        package var mergedLookAlikes: [Pair] = []
        package var keptLookAlikes = 0

        package var precision: Double {
            let merged = mergedDuplicates.count + mergedLookAlikes.count
            return merged == 0 ? 1 : Double(mergedDuplicates.count) / Double(merged)
        }

        package var recall: Double {
            Double(mergedDuplicates.count) / Double(max(1, mergedDuplicates.count + missedDuplicates.count))
        }

        package var description: String {
            let total = mergedDuplicates.count + missedDuplicates.count
            let lookAlikes = mergedLookAlikes.count + keptLookAlikes
            return String(
                format: "precision %.3f, recall %.3f (%d of %d duplicates merged, %d of %d look-alikes merged)",
                precision, recall, mergedDuplicates.count, total, mergedLookAlikes.count, lookAlikes)
        }
    }

    package static func figures(of rule: NearDuplicateRule, on part: Part) -> Figures {
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
