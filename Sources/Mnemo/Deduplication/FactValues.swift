import Foundation

/// The meaning-bearing values of a fact (numbers, times of day, amounts of money, months and
/// weekdays) in a canonical form, so that values written differently compare equal.
///
/// "30 km" and "30km", "11pm" and "23:00", "1200 euros" and "€1,200", "twelve" and "12",
/// "3 May 2026" and "May 3, 2026" and "2026-05-03" all give the same values; "11pm" and
/// "22:00", "€300" and "$300", "two" and "three" do not.
///
/// Values are a set: the order a sentence states them in does not matter, and neither does
/// repeating one. "one" is not read as a number (it is far more often a pronoun: "one of my
/// reports", "evening ones"); neither are ordinal words ("first").
struct FactValues: Hashable {
    /// Canonical values: `n:12`, `t:23:00`, `$:EUR:1200`, `m:5`, `w:thu`.
    let values: Set<String>
    /// Numbers that label an item of a series rather than measure something ("week 99",
    /// "number 3", "episode 12"), as `noun:number`: facts that differ by one are about another
    /// occasion or item, not another value of the same thing.
    let labels: Set<String>
    /// The text's words after canonicalisation (number words become digits, "30km" becomes
    /// "30" "km", "€1,200" becomes "1200" "eur"), lower-cased and diacritic-folded.
    let words: [String]
    /// The words that spell values ("2026", "5" and "m5" of a date, "23:00", "1200", "eur"…):
    /// what is left of a fact's words once they are set aside is the frame the values are stated in.
    let valueWords: Set<String>

    var isEmpty: Bool { values.isEmpty }

    init(_ text: String) {
        var values = Set<String>()
        var labels = Set<String>()
        var words: [String] = []
        var valueWords = Set<String>()
        let tokens = Self.tokens(text)
        var index = 0
        while index < tokens.count {
            let wordsBefore = words.count
            var isPlainWord = false
            defer { if !isPlainWord { valueWords.formUnion(words[wordsBefore...]) } }
            let token = tokens[index]
            let next = index + 1 < tokens.count ? tokens[index + 1] : nil
            if let iso = Self.isoDate(token) {
                values.formUnion(["n:\(iso.year)", "m:\(iso.month)", "n:\(iso.day)"])
                words += ["\(iso.year)", "\(iso.month)", "\(iso.day)"]
            } else if let time = Self.timeOfDay(token, next: next) {
                values.insert("t:" + time.canonical)
                words.append(time.canonical)
                index += time.consumed - 1
            } else if let currency = Self.currencySymbols[token], let next, let amount = Self.number(next) {
                values.insert("$:\(currency):\(amount)")
                words += [amount, currency.lowercased()]
                index += 1
            } else if let amount = Self.number(token) {
                if let next, let currency = Self.currencyWords[next] ?? Self.currencySymbols[next] {
                    values.insert("$:\(currency):\(amount)")
                    words += [amount, currency.lowercased()]
                    index += 1
                } else if let tens = Self.numberWords[token], tens >= 20, tens < 100, let next,
                    let units = next == "one" ? 1 : Self.numberWords[next], units < 10
                {
                    // "twenty-five", "twenty five"
                    values.insert("n:\(tens + units)")
                    words.append(String(tens + units))
                    index += 1
                } else {
                    values.insert("n:\(amount)")
                    words.append(amount)
                    if index > 0, Self.seriesNouns.contains(tokens[index - 1]) {
                        labels.insert(tokens[index - 1] + ":" + amount)
                    }
                }
            } else if token == "twice" {
                values.insert("n:2")
                words += ["2", "times"]
            } else if let month = Self.month(token) {
                values.insert("m:\(month)")
                words.append("m\(month)")
            } else if let weekday = Self.weekday(token) {
                values.insert("w:" + weekday)
                words.append(weekday)
            } else if token == "noon" || token == "midday" {
                values.insert("t:12:00")
                words.append("12:00")
            } else if token == "midnight" {
                values.insert("t:00:00")
                words.append("00:00")
            } else {
                words.append(TextNormalization.folded(token))
                isPlainWord = true
            }
            index += 1
        }
        self.values = values
        self.labels = labels
        self.words = words
        self.valueWords = valueWords
    }

    /// Nouns after which a number names an item of a series.
    static let seriesNouns: Set<String> = [
        "week", "day", "number", "no", "episode", "chapter", "lesson", "session", "round", "level", "stage", "part",
        "season", "volume", "issue", "page", "step", "item", "entry", "note", "fact", "case", "trial", "version",
        "sprint", "iteration", "room", "gate", "seat", "row", "class", "grade", "unit", "module", "task", "ticket",
        "game", "match", "lap", "quarter", "phase", "batch", "sample", "group", "track", "route", "flight",
        "platform", "question", "exercise", "problem", "figure", "table", "test", "hobby", "topic",
    ]

    // MARK: Tokens

    /// Words, numbers (with their `,` `.` `:` `-` separators) and currency symbols, in order.
    /// A number glued to a unit is split off it ("30km" → "30" "km"; "11pm" stays one token for
    /// the time parser); hyphens split words ("five-a-side", "twenty-five") but not numbers.
    static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        func flush() {
            if !current.isEmpty { tokens.append(current) }
            current = ""
        }
        let characters = Array(text)
        for (offset, character) in characters.enumerated() {
            if currencySymbols[String(character)] != nil || character == "%" {
                flush()
                tokens.append(String(character))
            } else if character.isLetter || character.isNumber || character == "'" || character == "’" {
                if let last = current.last, last.isNumber, character.isLetter, !isTimeSuffixStart(characters, offset) {
                    flush()
                }
                current.append(character == "’" ? "'" : character)
            } else if character == "," || character == "." || character == ":" || character == "-",
                current.last?.isNumber == true, offset + 1 < characters.count, characters[offset + 1].isNumber
            {
                current.append(character)
            } else {
                flush()
            }
        }
        flush()
        return tokens.map { $0.lowercased() }
    }

    /// Whether the letters at `offset`, after digits, are "am"/"pm" ("11pm", "9:30am").
    private static func isTimeSuffixStart(_ characters: [Character], _ offset: Int) -> Bool {
        let rest = String(characters[offset..<min(characters.count, offset + 3)]).lowercased()
        guard rest.hasPrefix("am") || rest.hasPrefix("pm") else { return false }
        return rest.count == 2 || !rest.last!.isLetter
    }

    // MARK: Numbers

    static let numberWords: [String: Int] = [
        "zero": 0, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
        "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
        "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
        "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000, "dozen": 12,
    ]

    /// A number in canonical form: thousands separators dropped, a decimal comma read as a
    /// point, leading zeros and trailing fractional zeros dropped, number words as digits,
    /// ordinal suffixes ignored ("3rd" → "3").
    static func number(_ token: String) -> String? {
        if let value = numberWords[token] { return String(value) }
        var text = token
        for suffix in ["st", "nd", "rd", "th"]
        where text.hasSuffix(suffix) && text.dropLast(2).allSatisfy(\.isNumber) && text.count > 2 {
            text = String(text.dropLast(2))
        }
        guard let first = text.first, first.isNumber, text.allSatisfy({ $0.isNumber || $0 == "," || $0 == "." }) else {
            return nil
        }
        // "15,000" and "1,200.50" use commas for thousands; "1,5" is a decimal comma.
        let groups = text.split(separator: ",", omittingEmptySubsequences: false)
        if groups.count > 1, groups.dropFirst().allSatisfy({ $0.prefix { $0.isNumber }.count == 3 }) {
            text = groups.joined()
        } else {
            text = text.replacingOccurrences(of: ",", with: ".")
        }
        guard text.filter({ $0 == "." }).count <= 1,
            let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        else { return nil }
        return "\(value)"
    }

    // MARK: Dates and times

    private static func isoDate(_ token: String) -> (year: Int, month: Int, day: Int)? {
        let parts = token.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, let year = Int(parts[0]), let month = Int(parts[1]),
            let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        return (year, month, day)
    }

    /// "23:00", "9:30am", "11pm", "7 pm", "6 a.m." as a 24-hour "HH:MM", and how many tokens it took.
    private static func timeOfDay(_ token: String, next: String?) -> (canonical: String, consumed: Int)? {
        var text = token
        var consumed = 1
        var meridiem: String?
        for suffix in ["am", "pm"] where text.hasSuffix(suffix) {
            meridiem = suffix
            text = String(text.dropLast(2))
        }
        if meridiem == nil, let next, next == "am" || next == "pm" || next == "a.m" || next == "p.m" {
            meridiem = String(next.prefix(1)) + "m"
            consumed = 2
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard !text.isEmpty, parts.count <= 2, let hour = Int(parts[0]) else { return nil }
        let minute = parts.count == 2 ? Int(parts[1]) : 0
        guard let minute, parts.count == 2 ? parts[1].count == 2 : true, (0..<60).contains(minute) else { return nil }
        if parts.count == 1, meridiem == nil { return nil }
        var hour24 = hour
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour24 = hour % 12 + (meridiem == "pm" ? 12 : 0)
        } else {
            guard (0...23).contains(hour) else { return nil }
        }
        return (String(format: "%02d:%02d", hour24, minute), consumed)
    }

    private static let months: [String: Int] = [
        "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
        "september": 9, "october": 10, "november": 11, "december": 12,
        "jan": 1, "feb": 2, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11,
        "dec": 12,
    ]

    static func month(_ token: String) -> Int? { months[token] }

    private static let weekdays: [String: String] = [
        "monday": "mon", "tuesday": "tue", "wednesday": "wed", "thursday": "thu", "friday": "fri",
        "saturday": "sat", "sunday": "sun",
    ]

    static func weekday(_ token: String) -> String? {
        weekdays[token] ?? (token.hasSuffix("s") ? weekdays[String(token.dropLast())] : nil)
    }

    // MARK: Money

    static let currencySymbols: [String: String] = ["€": "EUR", "$": "USD", "£": "GBP", "¥": "JPY"]

    static let currencyWords: [String: String] = [
        "euro": "EUR", "euros": "EUR", "eur": "EUR", "dollar": "USD", "dollars": "USD", "usd": "USD", "bucks": "USD",
        "pound": "GBP", "pounds": "GBP", "gbp": "GBP", "quid": "GBP", "yen": "JPY", "jpy": "JPY",
    ]
}
