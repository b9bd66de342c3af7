import Foundation
import Mnemo

/// The text forms of a fact in CLI output; its JSON form is the library's `FactJSON`.
enum FactOutput {
    /// One line: id, content and the facets a reader scans for.
    static func line(_ fact: Fact) -> String {
        let state = fact.isActive ? "" : " · inactive"
        return "#\(fact.id)  \(fact.content)  [\(fact.type.rawValue), \(fact.importance.rawValue)\(state)]"
    }

    /// Every field, one per line.
    static func details(_ fact: Fact) -> String {
        """
        #\(fact.id)  \(fact.content)
          topic       \(fact.topicPath)
          type        \(fact.type.rawValue)
          importance  \(fact.importance.rawValue)
          confidence  \(fact.confidence)
          active      \(fact.isActive ? "yes" : "no")
          sources     \(fact.sources.isEmpty ? "–" : fact.sources.joined(separator: ", "))
          mentions    \(fact.mentionCount)
          created     \(Timestamp.format(fact.createdAt))
          updated     \(Timestamp.format(fact.updatedAt))
        """
    }
}
