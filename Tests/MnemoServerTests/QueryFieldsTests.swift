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

    @Test func theBrokenFieldIsNamed() throws {
        #expect(QueryFields.brokenField(in: "q=swift&limit=2") == nil)
        #expect(QueryFields.brokenField(in: "flag&e=&q=a+b%20c") == nil)
        let broken = try #require(QueryFields.brokenField(in: "limit=2&since=%%%x"))
        #expect(broken.code == "invalid_query")
        #expect(broken.message.contains(#"the query parameter "since""#), "\(broken.message)")
        let badName = try #require(QueryFields.brokenField(in: "%ZZ=1"))
        #expect(badName.message.contains("%ZZ"))
        let notUTF8 = try #require(QueryFields.brokenField(in: "q=%FF"))
        #expect(notUTF8.message.contains(#""q""#))
    }

    @Test("Broken percent-encoding is a 400 naming the field, in both APIs and the page")
    func brokenQueryStringsAreRefused() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            for (uri, name) in [
                ("/v1/users/alice/changes?since=%%%x&limit=2", "since"),
                ("/api/topics/search?q=%%%bread", "q"),
                ("/v1/users/alice/facts?limit=50&is_active=tr%ue", "is_active"),
                ("/ui/search?q=%E2%82", "q"),
            ] {
                let response = try await client.send(.get, uri)
                #expect(response.status == .badRequest, "\(uri): \(response.status) \(response.text)")
                #expect(try response.errorCode() == "invalid_query", "\(uri)")
                #expect(response.text.contains("\\\"\(name)\\\""), "\(uri): \(response.text)")
            }
            // A well-formed query is untouched.
            let fine = try await client.send(.get, "/api/topics/search?q=marathon")
            #expect(fine.status == .ok)
        }
    }
}
