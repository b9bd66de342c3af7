import ArgumentParser
import Mnemo

struct TopicCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "topic",
        abstract: "Show one topic: its subtopics and its facts.",
        discussion: "The path is matched ignoring case and accents: `mnemo topic \"technology/ios development\"`."
    )

    @Argument(help: "The topic path, segments separated by /.")
    var path: String

    @Option(help: "The number of facts to list.")
    var limit = 50

    @Flag(help: "Include deactivated facts.")
    var includeInactive = false

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let kb = try await global.openExistingKnowledgeBase()
        let (node, facts) = try await kb.topicDetail(
            at: TopicPath(path), activity: includeInactive ? .all : .activeOnly, limit: limit)
        if global.json {
            try Output.json(TopicDetailJSON(node, facts: facts, children: .paths))
            return
        }
        let topic = node.topic
        let children = node.children.map(\.topic)
        print(topic.path)
        for child in children { print("  ▸ \(child.name)") }
        print(facts.isEmpty ? "No facts." : facts.map { FactOutput.line($0) }.joined(separator: "\n"))
    }
}
