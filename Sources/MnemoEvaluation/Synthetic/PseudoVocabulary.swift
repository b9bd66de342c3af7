/// Pronounceable made-up words ("tavimo", "reksa"), distinct and ordered by length, so that the
/// most frequent ranks of a Zipfian vocabulary get the shortest words, as in natural language.
///
/// Words are lowercase ASCII letters only, so SQLite's tokenizer sees each as one token. The
/// porter stemmer may still fold a few of them together ("kabates" and "kabate"); that happens in
/// real text too.
public struct PseudoVocabulary: Sendable {
    /// The words, most frequent rank first.
    public let words: [String]

    private static let onsets = [
        "b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z",
        "br", "dr", "gr", "kl", "pl", "st", "tr", "sh", "ch", "th",
    ]
    private static let vowels = ["a", "e", "i", "o", "u", "ai", "ea", "ou"]
    private static let codas = ["", "", "", "n", "r", "s", "l", "m", "k", "x"]

    /// `count` distinct words drawn with `generator`.
    public init(count: Int, generator: inout SplitMix64) {
        var seen = Set<String>()
        var words: [String] = []
        words.reserveCapacity(count)
        while words.count < count {
            // One to four syllables; short words are common enough to fill the top ranks.
            let syllables = 1 + generator.below(2) + generator.below(3)
            var word = ""
            for index in 0..<syllables {
                word += Self.onsets[generator.below(Self.onsets.count)]
                word += Self.vowels[generator.below(Self.vowels.count)]
                if index == syllables - 1 { word += Self.codas[generator.below(Self.codas.count)] }
            }
            if seen.insert(word).inserted { words.append(word) }
        }
        // A stable sort keeps the draw order among words of one length.
        self.words = words.enumerated().sorted { ($0.element.count, $0.offset) < ($1.element.count, $1.offset) }.map(
            \.element)
    }

    public var count: Int { words.count }

    public subscript(rank: Int) -> String { words[rank] }
}
