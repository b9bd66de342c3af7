import Foundation
import GRDB
import Testing

@testable import Mnemo

/// The hand-written date arithmetic behind ingest and export agrees with Foundation's formatter.
@Suite struct TimestampTests {
    @Test func formatAndParseAgreeWithISO8601FormatStyle() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            // Whole milliseconds from 1900 to 2100. Foundation's style truncates fractions, so it
            // formats the whole seconds and the milliseconds are appended by hand.
            let milliseconds = Int64.random(in: -2_208_988_800_000...4_102_444_800_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
            let wholeSeconds = Date(timeIntervalSince1970: Double(fraction < 0 ? seconds - 1 : seconds))
            let millis = fraction < 0 ? fraction + 1000 : fraction
            let expected =
                wholeSeconds.formatted(.iso8601).dropLast() + (millis == 0 ? "Z" : String(format: ".%03dZ", millis))
            let text = Timestamp.format(date)
            #expect(text == expected)
            let parsed = try #require(Timestamp.parse(text))
            #expect(Int64((parsed.timeIntervalSince1970 * 1000).rounded()) == milliseconds)
            #expect(
                Timestamp.databaseText(date) == String(text.replacingOccurrences(of: "T", with: " ").dropLast())
                    + (text.contains(".") ? "" : ".000"))
        }
    }

    /// Facts' dates are read from their stored text by hand; they must be the very dates GRDB's
    /// decoding gives (a fact read either way compares equal).
    @Test func databaseTextReadsAsGRDBReadsIt() throws {
        var generator = SystemRandomNumberGenerator()
        for index in 0..<20_000 {
            let milliseconds = Int64.random(in: -2_208_988_800_000...4_102_444_800_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            // Every other date in whole seconds, the form without a fraction.
            let text =
                index.isMultiple(of: 2)
                ? Timestamp.databaseText(date) : String(Timestamp.databaseText(date).prefix(19))
            let grdb = try #require(Date.fromDatabaseValue(text.databaseValue))
            #expect(Timestamp.parseDatabaseText(text) == grdb, "\(text)")
        }
        for text in ["2025-02-29 10:00:00", "2025-03-14T09:21:00.250", "2025-03-14 09:21:00.25", "2025-03-14 24:00:00"]
        {
            #expect(Timestamp.parseDatabaseText(text) == nil, "\(text)")
        }
    }

    @Test func outputAppendedAsBytesIsTheOutputText() {
        var generator = SystemRandomNumberGenerator()
        for index in 0..<5_000 {
            // Milliseconds from year 1 to 9999, and some dates outside, written through the text.
            let range: ClosedRange<Int64> =
                index.isMultiple(of: 10)
                ? -70_000_000_000_000...(-62_135_596_800_001) : -62_135_596_800_000...253_402_300_799_999
            let date = Date(timeIntervalSince1970: Double(Int64.random(in: range, using: &generator)) / 1000)
            for wholeSeconds in [false, true] {
                var bytes: [UInt8] = []
                Timestamp.appendOutput(date, wholeSeconds: wholeSeconds, to: &bytes)
                #expect(String(decoding: bytes, as: UTF8.self) == Timestamp.output(date, wholeSeconds: wholeSeconds))
            }
        }
    }

    @Test func roundsToTheNearestMillisecond() {
        let date = Date(timeIntervalSince1970: 1_736_937_000.7869999)
        #expect(Timestamp.format(date) == "2025-01-15T10:30:00.787Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1_736_937_000.9996)) == "2025-01-15T10:30:01Z")
    }

    @Test(arguments: [
        "2025-02-29T00:00:00Z", "2025-01-15T24:00:00Z", "2025-01-15T10:30:00", "2025-01-15T10:30Z",
        "2025-01-15T10:30:00.Z", "2025-01-15T10:30:00+0200", "yesterday", "2025-1-5", "2025-01-15x",
    ])
    func rejectsInvalidDates(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test func acceptsOffsetsFractionsAndPlainDates() {
        #expect(Timestamp.parse("2025-01-15T12:30:00+02:00").map(Timestamp.format) == "2025-01-15T10:30:00Z")
        #expect(Timestamp.parse("2024-02-29T23:59:59.5Z").map(Timestamp.format) == "2024-02-29T23:59:59.500Z")
        #expect(Timestamp.parse("2025-03-14").map(Timestamp.format) == "2025-03-14T00:00:00Z")
        #expect(Timestamp.parse(" 2025-01-15 10:30:00.123456789z ").map(Timestamp.format) == "2025-01-15T10:30:00.123Z")
        #expect(Timestamp.parse("1969-12-31T23:59:59.999Z").map(Timestamp.format) == "1969-12-31T23:59:59.999Z")
    }
}

/// The fast paths of ``TextNormalization`` give what the general paths give.
@Suite struct TextNormalizationTests {
    @Test func asciiFactKeysMatchTheGeneralFolding() {
        let samples = [
            "Lives in Porto.", "lives in  porto", "Costs $5+", "Says \"hi\"!?", "A-B_C (d)...", " padded ",
            "TAB\tinside", "Emoji 🙂.", "Café au lait!", "trailing $", "ends with }", "(", "", "x~",
        ]
        for sample in samples + (0..<128).map({ "a" + String(UnicodeScalar(UInt8($0))) }) {
            var general = TextNormalization.collapsingWhitespace(sample)
                .precomposedStringWithCanonicalMapping
                .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            while let last = general.unicodeScalars.last,
                CharacterSet.punctuationCharacters.contains(last) || CharacterSet.whitespaces.contains(last)
            {
                general.unicodeScalars.removeLast()
            }
            #expect(TextNormalization.factKey(sample) == general, "\(sample.debugDescription)")
        }
    }

    @Test func trimmingMatchesFoundation() {
        for sample in ["  a b  ", "\n\tx\r\n", "\u{200B}zero width\u{200B}", "\u{A0}nbsp\u{3000}", "", "   ", "é"] {
            #expect(TextNormalization.trimmed(sample) == sample.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}
