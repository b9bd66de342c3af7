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
        let kb = try global.openExistingKnowledgeBase()
        guard let topic = try await kb.topic(at: TopicPath(path)) else { throw MnemoError.notFound(.topic(path)) }
        let children = try await kb.children(of: TopicPath(topic.path))
        let facts = try await kb.facts(
            matching: FactFilter(topicPath: TopicPath(topic.path), activity: includeInactive ? .all : .activeOnly),
            limit: limit)
        if global.json {
            try Output.json(TopicDetailOutput(id: topic.id, name: topic.name, path: topic.path,
                                              children: children.map(\.path), facts: facts.map(FactOutput.init)))
            return
        }
        print(topic.path)
        for child in children { print("  ▸ \(child.name)") }
        print(facts.isEmpty ? "No facts." : facts.map { FactOutput.line($0) }.joined(separator: "\n"))
    }
}

/// The JSON shape of one topic with its subtopics and facts (`mnemo topic`, `:topic` in the REPL).
struct TopicDetailOutput: Encodable {
    var id: Int64
    var name: String
    var path: String
    var children: [String]
    var facts: [FactOutput]
}
