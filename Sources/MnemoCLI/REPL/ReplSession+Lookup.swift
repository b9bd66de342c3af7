import Foundation
import Mnemo

extension ReplSession {
    /// `:fact ID`
    func showFact(_ argument: String) async throws {
        let id = try Self.factID(argument, command: "fact")
        guard let fact = try await kb.fact(id: id) else { throw MnemoError.notFound(.fact(id)) }
        if json { return try Output.json(FactJSON(fact)) }
        print(FactOutput.details(fact))
    }

    /// `:history ID`
    func showHistory(_ argument: String) async throws {
        let id = try Self.factID(argument, command: "history")
        let events = try await kb.history(ofFact: id)
        guard !events.isEmpty else { throw MnemoError.notFound(.fact(id)) }
        if json { return try Output.json(events.map(HistoryEventJSON.init)) }
        for event in events { print(HistoryEventOutput.line(event, style: style)) }
    }

    /// `:topic PATH`
    func showTopic(_ argument: String) async throws {
        let path = InlineQuery.unquoted(argument[...])
        guard !path.isEmpty else { throw CLIError("usage: :topic PATH (Tab completes paths; :topics lists them)") }
        let topicPath = try TopicPath(path)
        try await requireTopic(topicPath)
        let (node, facts) = try await kb.topicDetail(at: topicPath, limit: Self.topicFactLimit)
        let topic = node.topic
        if json { return try Output.json(TopicDetailJSON(node, facts: facts, children: .paths)) }
        let children = node.children.map(\.topic)
        print(style.bold(topic.path))
        for child in children { print("  ▸ \(child.name)") }
        print(facts.isEmpty ? "No facts." : ResultFormatter(style: style).facts(facts))
        if facts.count == Self.topicFactLimit {
            print(
                style.dim(
                    "The first \(Self.topicFactLimit) facts; search with topic:\"\(topic.path)\" limit:N for more."))
        }
    }

    /// `:topics`
    func showTopics() async throws {
        let tree = try await kb.topicTree()
        if json { return try Output.json(tree.map(TopicNodeJSON.init)) }
        print(tree.isEmpty ? "No topics yet." : TopicOutput.outline(tree))
    }

    /// `:stats`
    func showStats() async throws {
        let stats = try await kb.stats()
        if json { return try Output.json(stats) }
        func counts<Key: RawRepresentable<String>>(_ keys: [Key], _ table: [Key: Int]) -> String {
            keys.map { "\($0.rawValue) \(table[$0] ?? 0)" }.joined(separator: " · ")
        }
        print(
            "\(stats.facts) facts (\(stats.activeFacts) active, \(stats.inactiveFacts) inactive) in \(stats.topics) topics"
        )
        print("by type        " + counts(FactType.allCases, stats.byType))
        print("by importance  " + counts(Importance.allCases.reversed(), stats.byImportance))
    }

    static let topicFactLimit = 20

    /// A fact id written as `25` or `#25`.
    static func factID(_ argument: String, command: String) throws -> Int64 {
        let digits = argument.hasPrefix("#") ? argument.dropFirst() : argument[...]
        guard let id = Int64(digits), id > 0 else {
            throw CLIError("usage: :\(command) ID, where ID is a fact's number (#25 in results)")
        }
        return id
    }
}
