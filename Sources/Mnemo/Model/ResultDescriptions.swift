import Foundation

// One-line descriptions of the values calls return, so that an app can print a result, a log
// line or a debug view without a switch over every case. Reports have theirs beside them.

extension Fact: CustomStringConvertible {
    /// One line: id, content, type, importance, confidence, topic, and whether it is inactive:
    /// `#3 "Prefers SwiftUI over UIKit" (preference, high, 0.95) in Technology/iOS Development`.
    public var description: String {
        "#\(id) \"\(content)\" (\(type.rawValue), \(importance.rawValue), \(String(format: "%.2g", confidence)))"
            + " in \(topicPath)" + (isActive ? "" : " [inactive]")
    }
}

extension Topic: CustomStringConvertible {
    /// The display path and the id: `Technology/iOS Development (topic #4)`.
    public var description: String { "\(path) (topic #\(id))" }
}

extension TopicNode: CustomStringConvertible {
    /// One line for the node (its children are not listed):
    /// `Technology (1 fact, 3 in the subtree, 2 subtopics)`.
    public var description: String {
        var counts = [Self.count(factCount, "fact")]
        if subtreeFactCount != factCount { counts.append("\(subtreeFactCount) in the subtree") }
        if !children.isEmpty { counts.append(Self.count(children.count, "subtopic")) }
        return "\(topic.path) (" + counts.joined(separator: ", ") + ")"
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)" + (number == 1 ? "" : "s")
    }
}

extension FactConflict: CustomStringConvertible {
    /// `conflict #2: #3 "Prefers hiking to cycling" vs #7 "These days I'd pick cycling over
    /// hiking" (reversed preference, similarity 0.91)`.
    public var description: String {
        "conflict #\(id): #\(older.id) \"\(older.content)\" vs #\(newer.id) \"\(newer.content)\""
            + " (\(reason), similarity \(String(format: "%.2f", similarity)))"
    }
}

extension AddFactOutcome: CustomStringConvertible {
    /// `added #3 "Likes tea" …`, `merged into #3 …`, `unchanged: already #3 …` followed by the
    /// stored fact's ``Fact/description``.
    public var description: String {
        switch self {
        case .added(let fact): "added \(fact)"
        case .merged(into: let fact): "merged into \(fact)"
        case .unchanged(let fact): "unchanged: already \(fact), seen \(TopicNode.count(fact.mentionCount, "time"))"
        }
    }
}

extension SearchHit: CustomStringConvertible {
    /// The score, then the fact, then what the score is made of:
    /// `0.873 #3 "Prefers SwiftUI over UIKit" (preference, high, 0.95) in Technology/iOS
    /// Development (text 4.21, similarity 0.81)`.
    public var description: String {
        var parts: [String] = []
        if let textScore { parts.append("text " + String(format: "%.2f", textScore)) }
        if let similarity { parts.append("similarity " + String(format: "%.2f", similarity)) }
        if !conflictsWith.isEmpty {
            parts.append("conflicts with " + conflictsWith.map { "#\($0)" }.joined(separator: ", "))
        }
        return String(format: "%.3f ", score) + fact.description
            + (parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")")
    }
}

extension OperationRecord: CustomStringConvertible {
    /// `#4 merge_topics: merged Fitness into Health (12 rows changed)`, and who undid it.
    public var description: String {
        "#\(id) \(kind.rawValue): \(summary) (\(TopicNode.count(changedRows, "row")) changed)"
            + (undoneBy.map { ", undone by #\($0)" } ?? "")
    }
}

extension KnowledgeBaseStats: CustomStringConvertible {
    /// `12 facts (10 active, 2 inactive) in 5 topics, 3 levels deep`.
    public var description: String {
        "\(TopicNode.count(facts, "fact")) (\(activeFacts) active, \(inactiveFacts) inactive) in "
            + "\(TopicNode.count(topics, "topic")), \(TopicNode.count(maxTopicDepth, "level")) deep"
    }
}
