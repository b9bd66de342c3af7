import Foundation
import Mnemo

/// The text form of search results; their JSON form is the library's `SearchResultsJSON`.
enum SearchOutput {
    static func text(_ hits: [SearchHit]) -> String {
        guard !hits.isEmpty else { return "No matching facts." }
        return hits.map { hit in
            let score = String(format: "%.3f", hit.score)
            let conflicts =
                hit.conflictsWith.isEmpty
                ? "" : " · conflicts with " + hit.conflictsWith.map { "#\($0)" }.joined(separator: ", ")
            return
                "#\(hit.fact.id)  \(hit.fact.content)\n     \(hit.fact.topicPath) · \(hit.fact.type.rawValue) · \(hit.fact.importance.rawValue) · score \(score)\(conflicts)"
        }.joined(separator: "\n")
    }
}
