import Mnemo

/// What Tab completes in the REPL: command names after `:`, topic paths after `:topic`,
/// `:merge` and `topic:`, filter names (`imp` → `importance:`) and filter values
/// (`type:go` → `type:goal`, `importance:>=me` → `importance:>=medium`).
struct ReplCompleter {
    var topicPaths: [String]
    var commands = ReplCommandDefinition.all

    /// The completion of the word before the cursor, or `nil` when there is nothing to offer.
    func complete(_ linePrefix: String) -> LineCompletion? {
        let completion = linePrefix.hasPrefix(":") ? completeCommand(linePrefix) : completeQuery(linePrefix)
        guard let completion, !completion.replacements.isEmpty else { return nil }
        return completion
    }

    private func completeCommand(_ line: String) -> LineCompletion? {
        let body = line.dropFirst()
        guard let space = body.firstIndex(where: \.isWhitespace) else {
            let names = commands.map(\.name).filter { $0.hasPrefix(body.lowercased()) }.map { ":" + $0 }
            return LineCompletion(replacedCount: line.count, replacements: names, isFinal: true)
        }
        guard let command = commands.first(where: { $0.isNamed(String(body[..<space])) }) else { return nil }
        let argument = String(body[space...].drop(while: \.isWhitespace))
        switch command.argument {
        case .none:
            return nil
        case .searchMode:
            return words(SearchMode.allCases.map(\.rawValue), completing: argument)
        case .topicPath:
            return paths(completing: argument, quotingSpaces: false)
        case .topicMerge:
            // The path being typed: after the last "into" or comma, else the whole argument.
            let lowered = argument.lowercased()
            var start = argument.startIndex
            if let into = lowered.range(of: " into ", options: .backwards) {
                start = argument.index(
                    argument.startIndex, offsetBy: lowered.distance(from: lowered.startIndex, to: into.upperBound))
            } else if let comma = argument.lastIndex(of: ",") {
                start = argument.index(after: comma)
            }
            return paths(completing: String(argument[start...].drop(while: \.isWhitespace)), quotingSpaces: false)
        }
    }

    private func completeQuery(_ line: String) -> LineCompletion? {
        let token = Self.lastToken(of: line)
        guard !token.isEmpty, token.first != "\"" else { return nil }
        guard let colon = token.firstIndex(of: ":") else {
            let names = InlineFilter.allCases.map { $0.rawValue + ":" }.filter { $0.hasPrefix(token.lowercased()) }
            return LineCompletion(replacedCount: token.count, replacements: names, isFinal: false)
        }
        guard let filter = InlineFilter(rawValue: token[..<colon].lowercased()) else { return nil }
        let head = String(token[...colon])
        let value = String(token[token.index(after: colon)...])
        let completion: LineCompletion?
        switch filter {
        case .type, .importance, .status:
            // A list: complete its last item, after any comparison sign (`>=medium`).
            var lead = value.prefix { ">=<".contains($0) }
            if let comma = value.lastIndex(of: ",") { lead = value[...comma] }
            completion = words(filter.valueWords, completing: String(value.dropFirst(lead.count)))
                .map {
                    LineCompletion(
                        replacedCount: value.count, replacements: $0.replacements.map { lead + $0 }, isFinal: true)
                }
        case .active, .mode:
            completion = words(filter.valueWords, completing: value)
        case .topic:
            completion = paths(completing: value, quotingSpaces: true)
        case .limit, .min, .since, .until:
            completion = nil
        }
        return completion.map {
            LineCompletion(
                replacedCount: token.count, replacements: $0.replacements.map { head + $0 }, isFinal: $0.isFinal)
        }
    }

    private func words(_ words: [String], completing typed: String) -> LineCompletion? {
        LineCompletion(
            replacedCount: typed.count, replacements: words.filter { $0.hasPrefix(typed.lowercased()) }, isFinal: true)
    }

    /// Topic paths that start with `typed` (ignoring case), in double quotes when the user
    /// opened a quote, or when `quotingSpaces` and the path holds a space (a filter's value;
    /// a command's argument runs to the end of the line and needs none).
    private func paths(completing typed: String, quotingSpaces: Bool) -> LineCompletion? {
        let opened = typed.first == "\""
        let prefix = (opened ? String(typed.dropFirst()) : typed).lowercased()
        let matches = topicPaths.filter { $0.lowercased().hasPrefix(prefix) }.sorted()
        let replacements = matches.map { path in opened || (quotingSpaces && path.contains(" ")) ? "\"\(path)\"" : path
        }
        return LineCompletion(replacedCount: typed.count, replacements: replacements, isFinal: true)
    }

    /// The text after the last space outside double quotes.
    static func lastToken(of line: String) -> String {
        var token = ""
        var quoted = false
        for character in line {
            if character == "\"" { quoted.toggle() }
            if character.isWhitespace && !quoted {
                token = ""
            } else {
                token.append(character)
            }
        }
        return token
    }
}
