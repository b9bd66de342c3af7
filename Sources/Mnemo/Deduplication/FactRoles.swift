/// Who does what to whom, as far as the user is involved: "I mentor Rita" and "Rita mentors me"
/// name the same people, nearly the same words, and opposite relations.
///
/// The participants are the user ("I", "me", "my" before a thing), people named by a
/// capitalised name, and relatives and other people the user names by role ("my brother").
/// English puts the doer first ("Tom reports to me"), or after "by" in the passive ("I was
/// hired by Carlos") and "from" for a source ("I learned to drive from Marta"); an extracted fact
/// that starts with its verb ("Lent Tiago 100 euros") is about the user. Two facts that share the
/// user and another person are reversed when the user comes before that person in one and after
/// them in the other.
struct FactRoles {
    /// Participant keys and where they act from: their first position, or -1 after "by".
    private let positions: [String: Int]

    static let selfKey = "self"

    init(_ text: String, names: Set<String>) {
        let tokens = FactWords.tokens(text)
        let words = tokens.map(TextNormalization.folded)
        var positions: [String: Int] = [:]
        func note(_ key: String, at index: Int) {
            // The doer of a passive ("hired by Carlos") and the source ("learned from Marta",
            // "borrowed from Tiago") act first.
            let position = index > 0 && ["by", "from"].contains(words[index - 1]) ? -1 : index
            if positions[key] == nil { positions[key] = position }
        }
        var index = 0
        while index < words.count {
            let word = words[index]
            if Self.selfWords.contains(word) {
                note(Self.selfKey, at: index)
            } else if word == "my" || word == "mine" || word == "our" {
                // "my brother", "my older sister Marta" name a person; "my rent" is the user's.
                let ahead = words[(index + 1)..<min(words.count, index + 3)]
                if let offset = ahead.firstIndex(where: {
                    Self.personNouns.contains(FactWords.stem($0)) || Self.personNouns.contains($0)
                }) {
                    note("person:" + FactWords.stem(words[offset]), at: index)
                    index = offset + 1
                    // A name right after the role is the same person: "my sister Marta".
                    if index < words.count, names.contains(words[index]) { index += 1 }
                    continue
                }
                note(Self.selfKey, at: index)
            } else if names.contains(word), !(index > 0 && Self.placePrepositions.contains(words[index - 1])) {
                note("name:" + word, at: index)
            }
            index += 1
        }
        // "Lent Tiago 100 euros": an extracted fact that starts with a verb is about the user.
        if positions[Self.selfKey] == nil, let first = tokens.first, first.first?.isUppercase == true,
            !Self.nonSubjectStarts.contains(words[0]), !names.contains(words[0])
        {
            positions[Self.selfKey] = 0
        }
        self.positions = positions
    }

    /// First words after which a fact's subject is not the user: determiners, pronouns, prepositions.
    private static let nonSubjectStarts: Set<String> = [
        "my", "the", "a", "an", "his", "her", "their", "our", "your", "its", "this", "that", "these", "those",
        "every", "each", "some", "most", "all", "no", "on", "in", "at", "for", "with", "after", "before", "during",
        "since", "when", "if", "she", "he", "they", "it", "there", "you", "everyone", "nobody",
    ]

    /// Whether the user and someone else swap places between the two facts.
    func isReversed(by other: FactRoles) -> Bool {
        guard let mine = positions[Self.selfKey], let theirs = other.positions[Self.selfKey] else { return false }
        for (key, position) in positions where key != Self.selfKey {
            guard let otherPosition = other.positions[key] else { continue }
            if (mine < position) != (theirs < otherPosition) { return true }
        }
        return false
    }

    /// Capitalised words that both facts capitalise (so a capitalised first word such as
    /// "Prefers" is not taken for a name), minus months and weekdays, folded.
    static func sharedNames(_ a: String, _ b: String) -> Set<String> {
        func names(_ text: String) -> Set<String> {
            Set(
                FactWords.tokens(text).filter { token in
                    guard let first = token.unicodeScalars.first, first.properties.isUppercase else { return false }
                    let folded = TextNormalization.folded(token)
                    return !selfWords.contains(folded) && FactValues.month(folded) == nil
                        && FactValues.weekday(folded) == nil
                }.map(TextNormalization.folded))
        }
        return names(a).intersection(names(b))
    }

    private static let selfWords: Set<String> = ["i", "me", "myself", "i'm", "i'd", "i've", "i'll", "we", "us"]

    /// A name after these is a place ("in Porto"); after "from" it may be a person or a place,
    /// and it counts, as the source.
    private static let placePrepositions: Set<String> = ["in", "at", "near", "on", "around"]

    /// Whether a folded word (or its stem) names a person by role: "aunt", "sisters", "boss".
    static func isPersonNoun(_ word: String) -> Bool {
        personNouns.contains(word) || personNouns.contains(FactWords.stem(word))
    }

    private static let personNouns: Set<String> = [
        "mother", "mum", "mom", "father", "dad", "parent", "brother", "sister", "sibling", "son", "daughter", "kid",
        "child", "children", "wife", "husband", "partner", "boyfriend", "girlfriend", "fiance", "fiancee", "aunt",
        "uncle", "cousin", "niece", "nephew", "grandmother", "grandfather", "grandma", "grandpa", "granny",
        "grandparent", "friend", "boss", "manager", "colleague", "coworker", "teammate", "neighbour", "neighbor",
        "teacher", "tutor", "coach", "mentor", "mentee", "therapist", "doctor", "dentist", "landlord", "landlady",
        "flatmate", "roommate", "student", "client", "team",
    ]
}
