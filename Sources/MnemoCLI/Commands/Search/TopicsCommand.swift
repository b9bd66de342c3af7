import ArgumentParser
import Mnemo

struct TopicsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "topics",
        abstract: "Show the topic tree with fact counts."
    )

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let tree = try await global.openExistingKnowledgeBase().topicTree()
        if global.json {
            try Output.json(tree.map(TopicNodeJSON.init))
        } else if tree.isEmpty {
            print("No topics yet.")
        } else {
            print(TopicOutput.outline(tree))
        }
    }
}

/// The text form of the topic tree; its JSON form is the library's `TopicNodeJSON`.
enum TopicOutput {
    /// An indented outline, one topic a line with its direct and total fact counts.
    static func outline(_ nodes: [TopicNode], depth: Int = 0) -> String {
        nodes.map { node in
            let indent = String(repeating: "  ", count: depth)
            let counts =
                node.children.isEmpty ? "\(node.factCount)" : "\(node.factCount), \(node.subtreeFactCount) in all"
            let line = "\(indent)\(node.topic.name) (\(counts))"
            return node.children.isEmpty ? line : line + "\n" + outline(node.children, depth: depth + 1)
        }.joined(separator: "\n")
    }
}
