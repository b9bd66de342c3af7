import Foundation

/// Decides whether two facts say the same thing, so that one can be merged into the other, and
/// whether two close facts say different things, so that they are kept as a conflict.
///
/// Cosine similarity alone cannot decide: with all-MiniLM-L6-v2, "I drink tea instead of coffee"
/// and "I drink coffee instead of tea" score 0.997 and "my aunt lives in Braga" / "my uncle
/// lives in Braga" 0.918, while true paraphrases score from 0.86 to 0.96, and paraphrases
/// reworded around the same values lower still ("I run 30 km every week" / "My weekly running
/// volume is 30 km"). A wrong merge loses a fact and a missed one only leaves a duplicate, so the
/// rule puts precision first. Two facts are near duplicates only when all of these hold:
///
/// 1. They have the same ``FactType``.
/// 2. They agree on their meaning-bearing values, compared in canonical form (see
///    `FactValues`): numbers, number words, times of day, amounts with their currency, months
///    and weekdays ("11pm" = "23:00", "€1,200" = "1200 euros", "twelve" = "12").
/// 3. They name the same people and places (capitalised words) and have the same polarity
///    (both negated or neither) and modality (done, wished for, former, under way: "I ran a
///    marathon" is not "I want to run a marathon").
/// 4. Their preferences point the same way ("hiking to cycling" is not "cycling over hiking")
///    and the user keeps their role towards the people named ("I mentor Rita" is not "Rita
///    mentors me"; see `FactRoles`).
/// 5. One is not the other with two content words swapped, nor a small in-place substitution of
///    one content word by another ("aunt" → "uncle", "peanuts" → "walnuts").
/// 6. Their cosine similarity is at least ``threshold``, or at least ``valueMatchThreshold``
///    when the checks prove that what carries their meaning matches: both state values and all
///    of them match, or both state a comparative preference pointing the same way. That is
///    strong evidence, so a paraphrase reworded around the same values still merges.
///
/// When checks 1 and 6 hold but another fails, the facts are close but differ. They are a
/// `Verdict.conflict`, kept as a pair for the user to settle, only when they state the same
/// attribute of the same subject with another value (where the sister lives, the appointment's
/// date, the rent); they are `Verdict.distinct` when what tells them apart is who or which
/// occasion they are about:
///
/// - another subject: one person substituted for another ("my aunt" / "my uncle lives in Braga"), or
///   the only change is the fact's first word ("Marta teaches piano" / "Laura teaches piano");
/// - another item of a series: a number labelling it differs ("…with Dev in week 99" / "…week
///   499", "fact number 3" / "fact number 7"; see `FactValues`);
/// - another occasion of an experience: two ``FactType/experience`` facts whose values differ only
///   in dates, weekdays, times or years ("Ran 10 km on Sunday" / "…on Monday"), or whose values
///   differ and neither names a month or a year ("Ran 10 km on Sunday" / "Ran 21 km on Sunday"):
///   an experience is one occurrence, and only a calendar date shows two statements to be about
///   the same one; a weekday comes back every week. "Ran 10 km on 6 October 2025" / "Ran 21 km
///   on 6 October 2025" is a conflict;
/// - no attribute in common: they differ in values or names, and their other words differ by
///   more than one (unless one word changed in place). Chat lines that greet or thank in other
///   words ("Hey Joanna! Long time no see!" / "Hey Joanna, what's been up since we last
///   chatted?") are close in meaning, and their dates differ, but neither states a value of
///   anything.
///
/// Two facts that differ only by one name or value in the same frame ("Sister lives in Lisbon" /
/// "Sister lives in Porto", cosine 0.7 with MiniLM) are a conflict from
/// ``valueMatchThreshold`` up: the frame shows they state the same attribute.
///
/// ## Records headed by a date
///
/// A chat turn stored as "Joanna (7:31 pm on 21 January, 2022) Cool, Nate! …" or a diary line
/// "2025-06-12: Ran 10 km" carries a date that says when it was written, not what it states.
/// The rule reads such a record without that date: its values prove nothing (every turn of a
/// session carries them), and two records headed by other dates or said by other speakers are
/// never one fact ("Bye Nate!" said in June and in October). The date and speaker they share
/// also raise the similarity of any two records (between LoCoMo's turns of one session that reach
/// 0.85, by 0.10 on average; 124 of those 132 pairs fall below 0.85 once the date and speaker are
/// cut), so two records are the same fact or a conflict only when what they state shares its
/// frame: the same words, values and names aside, but for one ("2025-06-12: Sister lives in
/// Lisbon" / "2025-09-01: Sister lives in Porto" is a conflict).
public struct NearDuplicateRule: Hashable, Sendable {
    /// The minimum cosine similarity, calibrated on the fixtures' planted pairs (see <doc:NearDuplicates>).
    public var threshold: Double

    /// The minimum cosine similarity when both facts state values and all of them match, or
    /// both state the same comparative preference.
    public var valueMatchThreshold: Double

    /// The threshold calibrated for all-MiniLM-L6-v2 on the fixture knowledge base.
    public static let defaultThreshold = 0.85

    /// The value-match threshold for all-MiniLM-L6-v2. Values that match are strong evidence:
    /// among the 349 facts of `Fixtures/knowledge.jsonl` no pair outside the planted ones passes
    /// every guard with matching values, at any similarity; planted paraphrases reworded around
    /// their values go down to 0.67 ("Cycles to work, 8 km each way" / "Bike commute is 8km in
    /// each direction").
    public static let defaultValueMatchThreshold = 0.65

    public init(
        threshold: Double = NearDuplicateRule.defaultThreshold,
        valueMatchThreshold: Double = NearDuplicateRule.defaultValueMatchThreshold
    ) {
        self.threshold = threshold
        self.valueMatchThreshold = min(threshold, valueMatchThreshold)
    }

    /// The lowest similarity at which two facts can be near duplicates or a conflict: what a
    /// search for candidates must reach down to.
    package var minimumSimilarity: Double { min(threshold, valueMatchThreshold) }

    /// What the rule says about two facts.
    package enum Verdict: Hashable, Sendable {
        /// The same fact: merge them.
        case duplicate
        /// Close, but the named check says they differ: keep both, linked as a conflict.
        case conflict(Difference)
        /// Unrelated, or not close enough to tell.
        case distinct
    }

    /// What tells two close facts apart; its raw value is the reason a conflict is stored and
    /// shown with (`mnemo conflicts`, `reason` in JSON).
    package enum Difference: String, Hashable, Sendable {
        case differentValues = "different values"
        case differentNames = "different names"
        case negation = "negation"
        case differentModality = "different modality"
        case reversedPreference = "reversed preference"
        case reversedRoles = "reversed roles"
        case swappedWords = "swapped words"
        case substitutedWord = "substituted word"
    }

    /// Whether a fact of type `typeA` with content `a` and one of `typeB` with `b`, at cosine
    /// `similarity`, are the same fact.
    package func isDuplicate(_ a: String, _ b: String, typeA: FactType, typeB: FactType, similarity: Double) -> Bool {
        verdict(a, b, typeA: typeA, typeB: typeB, similarity: similarity) == .duplicate
    }

    /// Whether two facts are the same, in conflict, or unrelated.
    package func verdict(_ a: String, _ b: String, typeA: FactType, typeB: FactType, similarity: Double) -> Verdict {
        guard typeA == typeB, similarity >= minimumSimilarity else { return .distinct }
        return verdict(ParsedFact(a), ParsedFact(b), type: typeA, similarity: similarity)
    }

    /// The verdict on two facts of one `type` read beforehand: a caller comparing one fact with
    /// many reads each once (a context compares every candidate with every item in).
    func verdict(_ a: ParsedFact, _ b: ParsedFact, type: FactType, similarity: Double) -> Verdict {
        guard similarity >= minimumSimilarity else { return .distinct }
        let check = IdentityCheck(a, b)
        // A date and speaker that two records share make them closer than what they state.
        if check.isRecord && !check.sharesFrame { return .distinct }
        if let difference = check.difference {
            guard !check.differentSubjectOrOccasion(experience: type == .experience),
                !check.differsInValueOrName || check.sharesFrame
            else {
                return .distinct
            }
            return similarity >= threshold || (check.singleSlotChange && similarity >= valueMatchThreshold)
                ? .conflict(difference) : .distinct
        }
        // The same words said on other dates or by others: two records (chat turns, diary lines).
        if check.separateRecords { return .distinct }
        return similarity >= (check.identityProven ? valueMatchThreshold : threshold) ? .duplicate : .distinct
    }

    /// Checks 2–5 of the rule: whether nothing tells the two facts apart.
    package func agreeOnIdentity(_ a: String, _ b: String) -> Bool {
        IdentityCheck(ParsedFact(a), ParsedFact(b)).difference == nil
    }
}

/// A fact's text as the rule reads it: its words and its preference, if it states one.
struct ParsedFact {
    let text: String
    let words: FactWords
    let preference: PreferenceDirection?

    init(_ text: String) {
        self.text = text
        words = FactWords(text)
        preference = PreferenceDirection(text)
    }
}

/// Checks 2–5 of ``NearDuplicateRule`` on two facts.
struct IdentityCheck {
    /// What tells the facts apart, if anything.
    let difference: NearDuplicateRule.Difference?
    /// Whether the facts' meaning-bearing parts are shown to match: both state values and all
    /// of them match (a ``DateStamp`` is not read), or both state a comparative preference and it
    /// points the same way.
    let identityProven: Bool

    let left: FactWords
    let right: FactWords
    /// The word-level edit script from the first fact's stems to the second's.
    let edits: [WordAlignment.Edit]

    init(_ a: ParsedFact, _ b: ParsedFact) {
        let left = a.words
        let right = b.words
        self.left = left
        self.right = right
        edits = WordAlignment.edits(from: left.stems, to: right.stems)
        let preferences = (a.preference, b.preference)
        var proven = !left.values.isEmpty && left.values == right.values
        if let mine = preferences.0, let theirs = preferences.1, mine.agrees(with: theirs) { proven = true }
        identityProven = proven
        difference = Self.difference(a.text, b.text, left, right, preferences, edits)
    }

    /// Whether either fact is a record headed by a date (see ``DateStamp``).
    var isRecord: Bool { !left.stampValues.isEmpty || !right.stampValues.isEmpty }

    /// Whether the facts are two records, whatever they state: headed by other dates, or said
    /// by other speakers.
    var separateRecords: Bool { left.stampValues != right.stampValues || left.speaker != right.speaker }

    /// Whether the facts differ in whom or which occasion they are about rather than in a value
    /// of one thing (see ``NearDuplicateRule``).
    func differentSubjectOrOccasion(experience: Bool) -> Bool {
        if left.labels != right.labels || left.speaker != right.speaker { return true }
        if experience, left.values != right.values {
            // Another date: another occasion.
            if left.values.symmetricDifference(right.values).allSatisfy(Self.isTimeValue) { return true }
            // Only a calendar date pins two experiences to one occasion; undated, or dated by a
            // weekday that comes back every week, they are two runs, not two distances of one.
            if !Self.isDated(left.values) && !Self.isDated(right.values) { return true }
        }
        for edit in edits {
            guard case .substitute(let old, let new) = edit else { continue }
            if FactRoles.isPersonNoun(old) && FactRoles.isPersonNoun(new) { return true }
        }
        // One frame with its first word changed: another subject ("Marta teaches piano" / "Laura …").
        if edits.count == 1, case .substitute(let old, let new) = edits[0], old == left.stems.first,
            new == right.stems.first,
            !FactWords.stopWords.contains(old), !FactWords.stopWords.contains(new)
        {
            return true
        }
        return false
    }

    /// Whether what tells the facts apart is a value or a name, which makes them a conflict only
    /// when they state it of the same attribute (``sharesFrame``). A negation, a modality, a
    /// reversed preference or role is a contradiction in whatever words it is put.
    var differsInValueOrName: Bool {
        difference == .differentValues || difference == .differentNames
    }

    /// Whether the facts state the same attribute: one word changed in place
    /// (``singleSlotChange``), or the same words, values and names aside, but for one word ("My
    /// sister lives in Lisbon" / "Sister now lives in Porto", "Dentist appointment on 12 June" /
    /// "Moved my dentist appointment to 12 July"). Two chat lines that thank or say goodbye in
    /// other words ("Thanks, Nate! Your support means a lot." / "Thanks Nate! Your support is
    /// greatly appreciated.") are close in meaning but state no attribute in common.
    ///
    /// Separate records (``separateRecords``) share an attribute only through their frames: two
    /// chat turns of other days, "Thanks!" and "Bye!", are no one word changed in place.
    var sharesFrame: Bool {
        (singleSlotChange && !separateRecords) || left.frameStems.symmetricDifference(right.frameStems).count <= 1
    }

    /// Whether the facts are one frame with one word or value changed in place: an edit script of
    /// a single substitution, of content words.
    var singleSlotChange: Bool {
        guard edits.count == 1, case .substitute(let old, let new) = edits[0] else { return false }
        return !FactWords.stopWords.contains(old) && !FactWords.stopWords.contains(new)
    }

    /// Whether `values` name a month or a year: a calendar date, which a weekday is not.
    private static func isDated(_ values: Set<String>) -> Bool {
        values.contains { $0.hasPrefix("m:") || (isTimeValue($0) && $0.hasPrefix("n:")) }
    }

    /// Months, weekdays, times of day and years: what dates an occasion.
    private static func isTimeValue(_ value: String) -> Bool {
        if value.hasPrefix("m:") || value.hasPrefix("w:") || value.hasPrefix("t:") { return true }
        guard value.hasPrefix("n:"), let number = Int(value.dropFirst(2)) else { return false }
        return (1900...2100).contains(number)
    }

    private static func difference(
        _ a: String, _ b: String, _ left: FactWords, _ right: FactWords,
        _ preferences: (PreferenceDirection?, PreferenceDirection?),
        _ edits: [WordAlignment.Edit]
    ) -> NearDuplicateRule.Difference? {
        if left.values != right.values { return .differentValues }
        if !left.names.isSubset(of: right.wordSet) || !right.names.isSubset(of: left.wordSet) {
            return .differentNames
        }
        if left.isNegated != right.isNegated { return .negation }
        if left.modality != right.modality { return .differentModality }
        if let mine = preferences.0, let theirs = preferences.1, mine.isReversed(by: theirs) {
            return .reversedPreference
        }
        let names = FactRoles.sharedNames(a, b)
        if FactRoles(a, names: names).isReversed(by: FactRoles(b, names: names)) { return .reversedRoles }
        // Swapping "likes" for "prefers" does not change a preference; its direction is checked above.
        let contentWords = left.contentStemSet.union(right.contentStemSet).subtracting(PreferenceDirection.verbStems)
        if NearDuplicateRule.isSwap(edits, contentWords: contentWords) { return .swappedWords }
        if NearDuplicateRule.isInPlaceSubstitution(edits, contentWords: contentWords) { return .substitutedWord }
        return nil
    }
}

extension NearDuplicateRule {
    /// Content-word substitutions in the script, as (old, new) pairs.
    private static func contentSubstitutions(_ edits: [WordAlignment.Edit], _ contentWords: Set<String>) -> [(
        String, String
    )] {
        edits.compactMap { edit in
            guard case .substitute(let old, let new) = edit, contentWords.contains(old), contentWords.contains(new)
            else { return nil }
            return (old, new)
        }
    }

    static func isSwap(_ edits: [WordAlignment.Edit], contentWords: Set<String>) -> Bool {
        guard edits.count <= 4 else { return false }
        let substitutions = contentSubstitutions(edits, contentWords)
        return substitutions.contains { pair in substitutions.contains { $0 == (pair.1, pair.0) } }
    }

    static func isInPlaceSubstitution(_ edits: [WordAlignment.Edit], contentWords: Set<String>) -> Bool {
        guard edits.count <= 3, !contentSubstitutions(edits, contentWords).isEmpty else { return false }
        return !edits.contains { edit in
            switch edit {
            case .insert(let word), .delete(let word): contentWords.contains(word)
            case .substitute: false
            }
        }
    }
}

/// The words of a fact as the near-duplicate rule sees them.
struct FactWords {
    /// Lower-cased, diacritic-folded word stems in order.
    let stems: [String]
    /// The stems that are not stop words, in order.
    let contentStems: [String]
    let contentStemSet: Set<String>
    /// The content stems that are neither a value nor a name: the frame a value is stated in.
    let frameStems: Set<String>
    /// Meaning-bearing values in canonical form (see `FactValues`).
    let values: Set<String>
    /// The values of the date that heads the fact, if one does (see ``DateStamp``).
    let stampValues: Set<String>
    /// Who said it, when a speaker's name comes before that date (folded).
    let speaker: String?
    /// The numbers labelling an item of a series (see ``FactValues/labels``).
    let labels: Set<String>
    /// Capitalised words that are not the first word (of the fact or, after a speaker and a
    /// date, of what they said): names of people, places, brands.
    let names: Set<String>
    /// Every folded word, to check that a name of one fact appears in the other.
    let wordSet: Set<String>
    let isNegated: Bool
    let modality: FactModality

    /// The words of `text`, read without a date that heads it: every turn of a chat session or
    /// line of a diary day carries that date, which says when, not what (see ``DateStamp``).
    init(_ text: String) {
        let stamp = DateStamp(text)
        let text = stamp?.unstamped ?? text
        let tokens = Self.tokens(text)
        var names = Set<String>()
        for (index, token) in tokens.enumerated() where index > 0 && index != stamp?.statementStart {
            if let first = token.unicodeScalars.first, CharacterSet.uppercaseLetters.contains(first),
                token != "I", !token.hasPrefix("I'"), !token.allSatisfy(\.isNumber)
            {
                let folded = TextNormalization.folded(token)
                // Months and weekdays are compared as values.
                if FactValues.month(folded) == nil, FactValues.weekday(folded) == nil { names.insert(folded) }
            }
        }
        let canonical = FactValues(text)
        let words = canonical.words
        self.names = names
        self.wordSet = Set(tokens.map(TextNormalization.folded))
        self.values = canonical.values
        self.stampValues = stamp?.values ?? []
        self.speaker = stamp?.speaker.map(TextNormalization.folded)
        self.labels = canonical.labels
        self.isNegated = words.contains { Self.negations.contains($0) || $0.hasSuffix("n't") }
        self.modality = FactModality(words: words)
        self.stems = words.map(Self.stem)
        self.contentStems = zip(words, stems).filter { !Self.stopWords.contains($0.0) }.map(\.1)
        self.contentStemSet = Set(contentStems)
        let frameNames = names.subtracting(Self.sentenceOpeners(text))
        self.frameStems = Set(
            zip(words, stems).filter { word, _ in
                !Self.stopWords.contains(word) && !frameNames.contains(word) && !canonical.valueWords.contains(word)
            }.map(\.1))
    }

    /// The words that open a sentence after an end mark (`.`, `!`, `?`), folded: capitalised by
    /// grammar rather than because they name someone ("Bye Joanna! Good luck!").
    static func sentenceOpeners(_ text: String) -> Set<String> {
        var openers = Set<String>()
        var word = ""
        var afterEnd = false
        var opensSentence = false
        for character in text + " " {
            if character.isLetter || character.isNumber || character == "'" || character == "’" {
                if word.isEmpty { opensSentence = afterEnd }
                word.append(character == "’" ? "'" : character)
                continue
            }
            if !word.isEmpty {
                if opensSentence { openers.insert(TextNormalization.folded(word)) }
                word = ""
                afterEnd = false
            }
            if character == "." || character == "!" || character == "?" { afterEnd = true }
        }
        return openers
    }

    static func tokens(_ text: String) -> [String] {
        text.split { !($0.isLetter || $0.isNumber || $0 == "'" || $0 == "’") }
            .map { String($0).replacingOccurrences(of: "’", with: "'") }
    }

    /// A light English stemmer: enough to see "prefer" and "prefers", "run" and "running" as one.
    static func stem(_ word: String) -> String {
        for suffix in ["ing", "ed", "es", "s"] where word.count > suffix.count + 2 && word.hasSuffix(suffix) {
            return String(word.dropLast(suffix.count))
        }
        return word
    }

    static let negations: Set<String> = [
        "not", "no", "never", "nor", "none", "nobody", "nothing", "neither", "without", "cannot",
    ]

    static let stopWords: Set<String> = [
        "a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "for", "with", "by", "from", "over",
        "about", "as", "into", "than", "instead", "i", "me", "my", "mine", "we", "our", "you", "your", "he", "she",
        "his", "her", "they", "their", "it", "its", "is", "am", "are", "was", "were", "be", "been", "being", "has",
        "have", "had", "do", "does", "did", "user", "user's", "this", "that", "these", "those", "there", "very",
        "really", "also", "just", "so", "some", "any", "all", "more", "most", "s", "'s", "now", "still",
    ]
}

/// The cheapest word-level edit script between two word sequences (Levenshtein with traceback).
enum WordAlignment {
    enum Edit: Equatable {
        case insert(String)
        case delete(String)
        case substitute(String, String)
    }

    static func edits(from a: [String], to b: [String]) -> [Edit] {
        let n = a.count
        let m = b.count
        var cost = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in 0...n { cost[i][0] = i }
        for j in 0...m { cost[0][j] = j }
        if n > 0, m > 0 {
            for i in 1...n {
                for j in 1...m {
                    let same = a[i - 1] == b[j - 1]
                    cost[i][j] = min(cost[i - 1][j] + 1, cost[i][j - 1] + 1, cost[i - 1][j - 1] + (same ? 0 : 1))
                }
            }
        }
        var edits: [Edit] = []
        var i = n
        var j = m
        while i > 0 || j > 0 {
            if i > 0, j > 0, cost[i][j] == cost[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1) {
                if a[i - 1] != b[j - 1] { edits.append(.substitute(a[i - 1], b[j - 1])) }
                i -= 1
                j -= 1
            } else if i > 0, cost[i][j] == cost[i - 1][j] + 1 {
                edits.append(.delete(a[i - 1]))
                i -= 1
            } else {
                edits.append(.insert(b[j - 1]))
                j -= 1
            }
        }
        return edits.reversed()
    }
}
