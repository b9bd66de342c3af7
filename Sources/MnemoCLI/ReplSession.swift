import Foundation
import Mnemo

/// The state and commands of the search REPL: a line is either a `:command` or a query.
struct ReplSession {
    var mode: SearchMode
    var filter = FactFilter()
    var limit = 5

    static let help = """
        Type a question or keywords to search. Commands:
          :mode text|semantic|hybrid   how to search (now: %MODE%)
          :type T[,T…]|any             only these types (fact, preference, goal, experience)
          :importance I|any            only facts at least this important (none, low, medium, high)
          :topic PATH|any              only facts in this topic or below
          :limit N                     results per search
          :topics                      show the topic tree
          :stats                       counts by type and importance
          :help                        this text
          :quit                        leave (or Ctrl-D)
        """

    enum Action: Equatable {
        case search(String)
        case say(String)
        case showTopics
        case showStats
        case quit
        case nothing
    }

    /// Interprets one input line, updating the settings for `:` commands.
    mutating func handle(_ line: String) -> Action {
        let line = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !line.isEmpty else { return .nothing }
        guard line.hasPrefix(":") else { return .search(line) }
        let parts = line.dropFirst().split(separator: " ", maxSplits: 1).map(String.init)
        let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        switch parts.first?.lowercased() ?? "" {
        case "q", "quit", "exit": return .quit
        case "h", "help", "?": return .say(Self.help.replacingOccurrences(of: "%MODE%", with: mode.rawValue))
        case "topics": return .showTopics
        case "stats": return .showStats
        case "mode":
            guard let mode = SearchMode(rawValue: argument.lowercased()) else { return .say("mode must be text, semantic or hybrid") }
            self.mode = mode
            return .say("mode: \(mode.rawValue)")
        case "type":
            if argument.lowercased() == "any" { filter.types = nil; return .say("any type") }
            let types = argument.split(separator: ",").map { FactType(parsing: String($0)) }
            guard !types.isEmpty, !types.contains(nil) else { return .say("types are fact, preference, goal and experience") }
            filter.types = Set(types.compactMap { $0 })
            return .say("types: \(filter.types!.sorted().map(\.rawValue).joined(separator: ", "))")
        case "importance":
            if argument.lowercased() == "any" { filter.minimumImportance = nil; return .say("any importance") }
            guard let importance = Importance(parsing: argument) else { return .say("importance is none, low, medium or high") }
            filter.minimumImportance = importance
            return .say("importance: at least \(importance.rawValue)")
        case "topic":
            if argument.isEmpty || argument.lowercased() == "any" { filter.topicPath = nil; return .say("any topic") }
            guard let path = try? TopicPath(argument) else { return .say("a topic path has no empty segments") }
            filter.topicPath = path
            return .say("topic: \(argument)")
        case "limit":
            guard let limit = Int(argument), limit > 0 else { return .say("limit must be a positive number") }
            self.limit = limit
            return .say("limit: \(limit)")
        default:
            return .say("unknown command \(line); type :help")
        }
    }

    func query(_ text: String) -> SearchQuery {
        SearchQuery(text, mode: mode, filter: filter, limit: limit)
    }
}
