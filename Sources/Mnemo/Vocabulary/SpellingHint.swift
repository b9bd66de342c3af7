/// "Did you mean …?" suggestions for misspelt commands, filters and values.
package enum SpellingHint {
    /// The candidate closest to `word`, when it is close enough to be what was meant: a
    /// distance of one edit for short words, two for longer ones (a swap of neighbours is one
    /// edit), or `word` being the start of exactly one candidate.
    package static func suggestion(for word: String, among candidates: [String]) -> String? {
        let word = word.lowercased()
        guard !word.isEmpty else { return nil }
        let allowed = word.count <= 4 ? 1 : 2
        let scored = candidates.map { ($0, distance(word, $0.lowercased())) }.filter { $0.1 <= allowed }
        if let best = scored.min(by: { $0.1 < $1.1 }) { return best.0 }
        let extensions = candidates.filter { word.count >= 2 && $0.lowercased().hasPrefix(word) }
        return extensions.count == 1 ? extensions[0] : nil
    }

    /// The optimal-string-alignment distance: insertions, deletions, substitutions and swaps of
    /// neighbouring characters each count one.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
