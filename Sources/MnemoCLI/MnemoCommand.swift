import ArgumentParser

@main
struct MnemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mnemo",
        abstract: "A knowledge base of facts about a user, searchable by words and by meaning."
    )
}
