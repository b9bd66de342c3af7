/// One `:command` of the REPL: its name, how it is used, and what it does.
///
/// The commands are listed in ``all`` (ReplCommandDefinition+All.swift); adding one there is
/// all it takes for `:help`, Tab completion and the "did you mean" hints to know it.
struct ReplCommandDefinition: Sendable {
    /// What Tab completes after the command's name.
    enum Argument: Sendable {
        case none
        case topicPath
        /// `SOURCE[, SOURCE…] into TARGET`.
        case topicMerge
        case searchMode
    }

    var name: String
    var aliases: [String] = []
    /// The arguments, as shown in `:help` (`ID`, `PATH`).
    var usage: String = ""
    var summary: String
    var argument: Argument = .none
    var run: @Sendable (ReplSession, String) async throws -> Void

    /// Whether `word` (without the colon) names this command.
    func isNamed(_ word: String) -> Bool {
        let word = word.lowercased()
        return word == name || aliases.contains(word)
    }
}
