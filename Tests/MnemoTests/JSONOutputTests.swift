import Foundation
import MnemoEvaluation
import Testing

@testable import Mnemo

/// ``JSONOutput`` writes the vocabulary's answers in exactly the bytes `JSONEncoder.mnemoOutput`
/// writes, whatever the values.
@Suite struct JSONOutputTests {
    /// Strings that need every kind of escape, or none: quotes, backslashes, every control
    /// character, slashes (left as is), DEL, non-ASCII text, emoji and the line separators.
    static let strings: [String] = [
        "",
        "Prefers SwiftUI over UIKit",
        "She said \"hi\" \\ then left",
        String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init))),
        "Technology/iOS Development/SwiftUI",
        "del \u{7F} nbsp \u{A0} line sep \u{2028} para sep \u{2029}",
        "café, naïve, Zürich, 東京, Привет, مرحبا, 👩‍💻 🇫🇷",
        "tab\tnew\nline\r\n and \u{8} \u{C} \u{0} end",
        "[SwiftUI] marked…",
    ]

    /// Numbers whose shortest text takes each of the encoder's forms: whole, fraction, exponent,
    /// negative zero, the smallest and largest doubles.
    static let numbers: [Double] = [
        0, -0.0, 1, -1, 0.1, 0.30000000000000004, 1.0 / 3, 2.5e-7, 1e-5, 1e15, 1e16, 1e20, 123_456_789.125,
        -987.654, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.999,
    ]

    /// Dates with and without a fraction of a second, before 1970 and far ahead.
    static let dates: [Date] = [
        Date(timeIntervalSince1970: 0),
        Date(timeIntervalSince1970: 1_705_314_600),
        Date(timeIntervalSince1970: 1_705_314_600.787),
        Date(timeIntervalSince1970: 1_705_314_600.9996),
        Date(timeIntervalSince1970: -86_400.25),
        Date(timeIntervalSince1970: 253_402_300_799.5),
    ]

    static func fact(_ index: Int, goal: Bool) -> Fact {
        let strings = Self.strings
        let dates = Self.dates
        return Fact(
            id: index == 0 ? Int64.max : Int64(index), uid: "0b7a4c1e-\(index)", namespace: "alice",
            topicID: Int64(index) * 7, topicPath: strings[(index + 4) % strings.count],
            content: strings[index % strings.count],
            type: goal ? .goal : FactType.allCases[index % FactType.allCases.count],
            importance: Importance.allCases[index % Importance.allCases.count],
            confidence: numbers[index % numbers.count], isActive: index % 2 == 0,
            sources: Array(strings.prefix(index % 3)), mentionCount: index,
            createdAt: dates[index % dates.count], updatedAt: dates[(index + 1) % dates.count],
            expiresAt: index % 3 == 0 ? dates[(index + 2) % dates.count] : nil,
            status: goal ? GoalStatus.allCases[index % GoalStatus.allCases.count] : nil,
            progress: goal ? numbers[(index + 3) % numbers.count] : nil,
            targetDate: goal && index % 2 == 0 ? dates[(index + 3) % dates.count] : nil,
            completedAt: goal && index % 4 == 0 ? dates[(index + 4) % dates.count] : nil)
    }

    static let facts = (0..<24).map { fact($0, goal: $0 % 3 == 1) }

    static let hits: [SearchHit] = facts.enumerated().map { index, fact in
        let number = { (offset: Int) in numbers[(index + offset) % numbers.count] }
        var hit = SearchHit(
            fact: fact, score: number(0), textScore: index % 2 == 0 ? number(1) : nil,
            similarity: index % 3 == 0 ? nil : number(2),
            snippet: index % 4 == 0 ? nil : strings[index % strings.count],
            // Relevance is rounded to thousandths (times 1000 first), so it stays far from overflow.
            relevance: index % 5 == 0 ? nil : [0.5, 1.0 / 3, 0.0004, 1, 0.2345][index % 5])
        hit.conflictsWith = Array([Int64(3), 9, Int64.max].prefix(index % 4))
        return hit
    }

    private func expectSameBytes<Value: Encodable & JSONWritable>(_ value: Value) throws {
        for wholeSeconds in [false, true] {
            let written = try JSONOutput.bytes(of: value, wholeSeconds: wholeSeconds)
            let encoded = try JSONEncoder.mnemoOutput(pretty: false, wholeSeconds: wholeSeconds).encode(value)
            #expect(
                written == Array(encoded),
                "\(String(decoding: written, as: UTF8.self))\n\(String(decoding: encoded, as: UTF8.self))")
        }
    }

    @Test func factsAreWrittenAsTheEncoderWritesThem() throws {
        for fact in Self.facts { try expectSameBytes(FactJSON(fact)) }
    }

    @Test func hitsAndResultsAreWrittenAsTheEncoderWritesThem() throws {
        for hit in Self.hits { try expectSameBytes(SearchHitJSON(hit)) }
        for mode in SearchMode.allCases {
            try expectSameBytes(SearchResultsJSON(query: Self.strings[2], mode: mode, hits: Self.hits))
        }
        try expectSameBytes(SearchResultsJSON(query: "", mode: .text, hits: []))
    }

    /// Seeded random text over the whole range of scalars (controls, surrogates' neighbours,
    /// astral planes) and random doubles from their bits.
    @Test func randomStringsAndNumbersAreWrittenAsTheEncoderWritesThem() throws {
        var generator = SplitMix64(seed: 40)
        for _ in 0..<300 {
            let text = String(
                String.UnicodeScalarView(
                    (0..<Int.random(in: 0...24, using: &generator)).map { _ in
                        let ranges: [ClosedRange<UInt32>] = [0...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0x10FFFF]
                        let range = ranges.randomElement(using: &generator)!
                        return Unicode.Scalar(UInt32.random(in: range, using: &generator))!
                    }))
            var number = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator))
            if !number.isFinite { number = Double(Int64.random(in: Int64.min...Int64.max, using: &generator)) }
            var fact = Self.facts[1]
            fact.content = text
            fact.confidence = number
            try expectSameBytes(FactJSON(fact))
        }
    }

    /// The keys are those the encoder wrote from the properties before the types spelled their
    /// `CodingKeys` out (snake_case of each property name).
    @Test func theKeysAreTheVocabularys() throws {
        var goal = Self.facts[1]
        (goal.expiresAt, goal.targetDate, goal.completedAt) = (Self.dates[1], Self.dates[2], Self.dates[3])
        let hit = SearchHit(
            fact: goal, score: 1, textScore: 1, similarity: 0.5, snippet: "s", relevance: 0.5, conflictsWith: [2])
        let object = try JSONSerialization.jsonObject(
            with: Data(JSONOutput.bytes(of: SearchHitJSON(hit), wholeSeconds: true)))
        let keys = try #require(object as? [String: Any]).keys.sorted()
        #expect(
            keys == [
                "completed_at", "confidence", "conflicts_with", "content", "created_at", "expires_at", "id",
                "importance",
                "is_active", "mention_count", "progress", "relevance", "score", "similarity", "snippet", "sources",
                "status", "target_date", "text_score", "topic", "topic_id", "type", "uid", "updated_at",
            ])
    }

    @Test func aNumberJSONCannotHoldIsRefusedAsTheEncoderRefusesIt() throws {
        for number in [Double.nan, .infinity, -.infinity] {
            var fact = Self.facts[0]
            fact.confidence = number
            #expect(throws: EncodingError.self) { try JSONOutput.bytes(of: FactJSON(fact), wholeSeconds: true) }
            #expect(throws: EncodingError.self) { try JSONEncoder.mnemoOutput(pretty: false).encode(FactJSON(fact)) }
        }
    }
}
