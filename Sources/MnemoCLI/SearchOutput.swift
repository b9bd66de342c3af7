import Foundation
import Mnemo

/// The JSON shape of `mnemo search --json`.
struct SearchOutput: Encodable {
    struct Result: Encodable {
        var id: Int64
        var content: String
        var topic: String
        var type: String
        var importance: String
        var confidence: Double
        var isActive: Bool
        var score: Double
        var textScore: Double?
        var similarity: Double?
        var snippet: String?
        var conflictsWith: [Int64]

        init(_ hit: SearchHit) {
            id = hit.fact.id
            content = hit.fact.content
            topic = hit.fact.topicPath
            type = hit.fact.type.rawValue
            importance = hit.fact.importance.rawValue
            confidence = hit.fact.confidence
            isActive = hit.fact.isActive
            score = hit.score
            textScore = hit.textScore
            similarity = hit.similarity
            snippet = hit.snippet
            conflictsWith = hit.conflictsWith
        }
    }

    var query: String
    var mode: String
    var results: [Result]

    static func text(_ hits: [SearchHit]) -> String {
        guard !hits.isEmpty else { return "No matching facts." }
        return hits.map { hit in
            let score = String(format: "%.3f", hit.score)
            let conflicts = hit.conflictsWith.isEmpty ? "" : " · conflicts with " + hit.conflictsWith.map { "#\($0)" }.joined(separator: ", ")
            return "#\(hit.fact.id)  \(hit.fact.content)\n     \(hit.fact.topicPath) · \(hit.fact.type.rawValue) · \(hit.fact.importance.rawValue) · score \(score)\(conflicts)"
        }.joined(separator: "\n")
    }
}
