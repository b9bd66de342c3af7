import Foundation
import Testing

@testable import MnemoServer

/// Query strings decode as forms encode them, with the answers of Foundation's
/// `removingPercentEncoding` (which the server no longer calls per request).
@Suite struct QueryFieldsTests {
    @Test func fieldsDecodeAsFormsEncodeThem() {
        let fields = QueryFields(
            encoded: "q=peanut+allergy%3F&type=goal&type=fact&topic=Food%2FCooking&x=%C3%A9t%C3%A9&e=")
        #expect(fields.get("q") == "peanut allergy?")
        #expect(fields.all("type") == ["goal", "fact"])
        #expect(fields.get("topic") == "Food/Cooking")
        #expect(fields.get("x") == "été")
        #expect(fields.get("e") == "")
    }

    @Test func aBrokenEscapeOrBytesThatAreNotUTF8DropTheField() {
        let fields = QueryFields(encoded: "a=%ZZ&b=%4&c=%C3&d=%FF%FE&ok=1")
        for name in ["a", "b", "c", "d"] { #expect(fields.get(name) == nil, "\(name)") }
        #expect(fields.get("ok") == "1")
    }

    @Test func decodingMatchesFoundationOnRandomText() {
        var generator = SystemRandomNumberGenerator()
        let pieces = [
            "a", "Z", "+", "%20", "%2B", "%25", "%", "%4", "%e2%82%ac", "%E2%82", "é", "/", "%00", "%7e", "~",
        ]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }
            .joined()
            let foundation = text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            #expect(QueryFields.decode(Substring(text)) == foundation, "\(text)")
        }
    }
}
