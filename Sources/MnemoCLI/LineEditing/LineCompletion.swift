/// What Tab offers at the cursor: replacements for the last `replacedCount` characters before it.
struct LineCompletion: Equatable {
    /// How many characters before the cursor the replacements stand for (the word being completed).
    var replacedCount: Int
    var replacements: [String]
    /// Whether a unique replacement is a whole word, so a space follows it; `type:` is not.
    var isFinal: Bool

    /// The replacements for the text that libedit will replace, `word`: the characters before
    /// the cursor back to the last of its word-break characters (space, quote, `=`, `>`, `&`…).
    ///
    /// `word` and the completed span end at the cursor but may start at different places: for
    /// `topic:"Hea` libedit replaces `Hea` while the completer replaced the whole `topic:"Hea`,
    /// and for `:topic Health & Fi` it replaces `Fi`. Each replacement is cut or extended so that
    /// it stands for exactly `word`. A replacement that does not begin with the part the user
    /// keeps (compared ignoring case) is left out.
    func matches(replacingWord word: String, linePrefix: String) -> [String] {
        let wordCount = word.count
        if wordCount >= replacedCount {
            let lead = String(linePrefix.dropLast(replacedCount).suffix(wordCount - replacedCount))
            return replacements.map { lead + $0 }
        }
        let kept = linePrefix.suffix(replacedCount).prefix(replacedCount - wordCount).lowercased()
        return replacements.compactMap { replacement in
            replacement.lowercased().hasPrefix(kept) ? String(replacement.dropFirst(kept.count)) : nil
        }
    }

    /// The longest common start of `strings`: what Tab inserts when several words fit.
    static func commonPrefix(_ strings: [String]) -> String {
        guard var prefix = strings.first else { return "" }
        for string in strings.dropFirst() {
            prefix = String(zip(prefix, string).prefix { $0 == $1 }.map(\.0))
        }
        return prefix
    }
}
