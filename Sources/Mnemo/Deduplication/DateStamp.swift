/// A date at the head of a record that says when it was written, not what it states: a chat
/// turn's "Joanna (7:31 pm on 21 January, 2022) Cool, Nate!…", a diary's "2025-06-12: Ran 10 km"
/// or "[12 June 2025] Called mum".
///
/// Every line of one chat session or one diary day carries the same stamp, so matching values in
/// it do not show two lines to say the same thing, and values that differ only in it show two
/// records of different occasions, not one attribute stated with two values (see
/// ``NearDuplicateRule``).
///
/// A stamp stands first, or after one word (the speaker), in brackets or before a colon, and
/// holds a date or a time of day and nothing else but "on", "at", "of" and "the". A date further
/// in ("Moved to Lisbon (in 2019)") belongs to the statement.
struct DateStamp {
    /// The stamp's values (see `FactValues`).
    let values: Set<String>
    /// The word before the stamp: who said what the record states.
    let speaker: String?
    /// The text without its stamp: the speaker, if any, and what the record states.
    let unstamped: String

    /// How many words (``FactWords/tokens(_:)``) of ``unstamped`` come before the statement.
    var statementStart: Int { speaker == nil ? 0 : 1 }

    init?(_ text: String) {
        let start = text[...].drop(while: \.isWhitespace)
        let speaker = start.prefix { $0.isLetter }
        let afterSpeaker = start.dropFirst(speaker.count).drop(while: \.isWhitespace)
        if let (values, statement) = Self.stamp(opening: start, colon: true) {
            self.values = values
            self.speaker = nil
            unstamped = String(statement.drop(while: \.isWhitespace))
        } else if !speaker.isEmpty, let (values, statement) = Self.stamp(opening: afterSpeaker, colon: false) {
            self.values = values
            self.speaker = String(speaker)
            unstamped = speaker + " " + statement.drop(while: \.isWhitespace)
        } else {
            return nil
        }
    }

    /// The values of a stamp that opens `text`, if one does, and the text after it.
    private static func stamp(opening text: Substring, colon: Bool) -> (Set<String>, Substring)? {
        guard let (stamp, statement) = split(text, colon: colon), let values = dateValues(stamp) else { return nil }
        return (values, statement)
    }

    /// The stamp's inside and the text after it: a bracketed part, or (when `colon`) the part
    /// before a colon that a space or the end follows ("19:00" is a time, not a stamp). After a
    /// speaker's name only a bracketed stamp is read: "June 12, 2025: …" is one date.
    private static func split(_ text: Substring, colon: Bool) -> (Substring, Substring)? {
        if let open = text.first, let close = ["(": Character(")"), "[": "]"][open] {
            guard let end = text.firstIndex(of: close) else { return nil }
            return (text[text.index(after: text.startIndex)..<end], text[text.index(after: end)...])
        }
        guard colon else { return nil }
        var index = text.startIndex
        while let colon = text[index...].firstIndex(of: ":") {
            let after = text.index(after: colon)
            if after == text.endIndex || text[after].isWhitespace { return (text[..<colon], text[after...]) }
            index = after
        }
        return nil
    }

    /// The values of `text` if it is a date or a time and nothing more.
    private static func dateValues(_ text: Substring) -> Set<String>? {
        let parsed = FactValues(String(text))
        let datesSomething = parsed.values.contains { value in
            if value.hasPrefix("m:") || value.hasPrefix("t:") { return true }
            guard value.hasPrefix("n:"), let number = Int(value.dropFirst(2)) else { return false }
            return (1900...2100).contains(number)
        }
        let onlyDate = parsed.words.allSatisfy { parsed.valueWords.contains($0) || connectors.contains($0) }
        return datesSomething && onlyDate ? parsed.values : nil
    }

    private static let connectors: Set<String> = ["on", "at", "of", "the"]
}
