/// Whether a fact states something done or true, wished for, past, or under way: "I ran a
/// marathon" is not "I want to run a marathon", "I used to live in Berlin" is not "I live in
/// Berlin", "Learned to play the guitar" is not "Is learning to play the guitar".
struct FactModality: OptionSet, Hashable {
    let rawValue: Int

    /// Wished for, planned or attempted: "want to", "would like", "plan to", "goal", "will".
    static let intended = FactModality(rawValue: 1 << 0)
    /// True once, no longer: "used to", "formerly", "anymore".
    static let former = FactModality(rawValue: 1 << 1)
    /// Under way: "is learning", "I'm reading", "currently".
    static let ongoing = FactModality(rawValue: 1 << 2)

    init(rawValue: Int) {
        self.rawValue = rawValue
    }

    private static let intentionVerbs: Set<String> = [
        "want", "wants", "wanted", "plan", "plans", "planning", "hope", "hopes", "hoping", "aim", "aims", "aiming",
        "intend", "intends", "try", "tries", "trying", "going",
    ]
    private static let intentionWords: Set<String> = [
        "goal", "goals", "wish", "wishes", "dream", "will", "i'll", "someday",
    ]
    private static let formerWords: Set<String> = ["formerly", "anymore", "previously"]
    private static let presentBe: Set<String> = ["is", "am", "are", "i'm", "she's", "he's", "we're", "they're"]

    /// The modality of a fact from its canonical words (see ``FactValues/words``).
    init(words: [String]) {
        var modality: FactModality = []
        for (index, word) in words.enumerated() {
            let next = index + 1 < words.count ? words[index + 1] : ""
            let previous = index > 0 ? words[index - 1] : ""
            if (Self.intentionVerbs.contains(word) && next == "to") || Self.intentionWords.contains(word)
                || (["like", "love"].contains(word) && ["would", "i'd", "she'd", "he'd", "we'd"].contains(previous))
            {
                modality.insert(.intended)
            } else if (word == "used" && next == "to") || Self.formerWords.contains(word) {
                modality.insert(.former)
            } else if word == "currently" {
                modality.insert(.ongoing)
            } else if Self.presentBe.contains(word) {
                // "is learning", "is still learning"; not "is trying to" (intended) or "I'm in".
                let verb =
                    ["still", "now", "currently"].contains(next) && index + 2 < words.count ? words[index + 2] : next
                if verb.hasSuffix("ing"), verb.count > 4, verb != "trying", verb != "going" {
                    modality.insert(.ongoing)
                }
            }
        }
        self = modality
    }
}
