import Foundation
import Testing

@testable import Mnemo
@testable import MnemoServer

/// The answers the server writes with `JSONOutput` are the bytes its `responseEncoder` would
/// write, with the same headers.
@Suite struct WrittenJSONTests {
    /// The request context's `responseEncoder`.
    private static let encoder = JSONEncoder.mnemoOutput(
        pretty: false, wholeSeconds: MnemoRequestContext.datesInWholeSeconds)

    private static func fact(_ index: Int) -> Fact {
        let date = Date(timeIntervalSince1970: 1_705_314_600.787 + Double(index) * 3_601.5)
        return Fact(
            id: Int64(index) + 1, uid: "uid-\(index)", namespace: "alice \"quoted\" / ü",
            topicID: 3, topicPath: index % 2 == 0 ? "Technology/iOS Development" : "",
            content: ["Café \u{1} \"x\" \\ 👩‍💻\n", "plain", "", "tab\tand\u{2028}"][index % 4],
            type: index % 3 == 0 ? .goal : .preference, importance: .high,
            confidence: [0.95, 1, 1e-7, -0.0][index % 4],
            isActive: index % 2 == 0, sources: Array(["chat-1", "a/b", "é"].prefix(index % 4)), mentionCount: index,
            createdAt: date, updatedAt: date.addingTimeInterval(0.5),
            expiresAt: index % 2 == 0 ? nil : date.addingTimeInterval(86_400),
            status: index % 3 == 0 ? .active : nil, progress: index % 3 == 0 ? 0.25 : nil,
            targetDate: index % 6 == 0 ? date : nil, completedAt: nil)
    }

    private func expectSameBytes<Value: Encodable & JSONWritable>(_ value: Value) throws {
        let written = try JSONOutput.bytes(of: value, wholeSeconds: MnemoRequestContext.datesInWholeSeconds)
        let encoded = try Self.encoder.encode(value)
        #expect(
            written == Array(encoded),
            "\(String(decoding: written, as: UTF8.self))\n\(String(decoding: encoded, as: UTF8.self))")
    }

    @Test func lucidAnswersAreWrittenAsTheEncoderWritesThem() throws {
        let facts = (0..<12).map { LucidFact(Self.fact($0)) }
        for fact in facts { try expectSameBytes(fact) }
        try expectSameBytes(LucidFactList(facts: facts, count: facts.count, limit: 50, offset: 0))
        try expectSameBytes(LucidFactList(facts: [], count: 0, limit: 0, offset: 7))
        let results = facts.enumerated().map { index, fact in
            LucidSearchResponse.Result(fact: fact, similarity: Double(index) / 7, score: -Double(index) * 1e-9)
        }
        try expectSameBytes(LucidSearchResponse(results: results, count: results.count, query: "a \"b\"", mode: "text"))
    }

    /// A listing through the router answers the encoder's text for the same facts, with the
    /// encoder's content type and length; a search, the same headers.
    @Test func routesAnswerTheEncodersText() async throws {
        let fixture = try await ServerFixture()
        let (search, list) = try await fixture.test { client in
            (
                try await client.send(.get, "/api/topics/search?q=swiftui&mode=text"),
                try await client.send(.get, "/v1/users/alice/facts?limit=50")
            )
        }
        let facts = try await fixture.knowledgeBase.inNamespace("alice").facts(limit: 50)
        let expected = try Self.encoder.encode(
            LucidFactList(facts: facts.map(LucidFact.init), count: facts.count, limit: 50, offset: 0))
        #expect(list.status == .ok)
        #expect(list.body == expected, "\(list.text)")
        #expect(try (search.object()["results"] as? [Any])?.count == 1)
        for (response, length) in [(search, search.body.count), (list, expected.count)] {
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            #expect(response.headers[.contentLength] == String(length))
        }
    }
}
