import Foundation
import Hummingbird
import HummingbirdTesting
import Mnemo
import Testing

@testable import MnemoServer

/// The Lucid client's model, exactly as `APPS-API.md` gives it.
private struct Fact: Codable, Identifiable {
    let id: String
    let userId: String
    let content: String
    let category: String?
    let confidence: Double
    let isActive: Bool
    let createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, content, category, confidence
        case userId = "user_id"
        case isActive = "is_active"
        case createdAt = "created_at"
    }
}

private struct FactSearchResult: Codable {
    let fact: Fact
    let similarity: Double
}
private struct FactSearchResponse: Codable {
    let results: [FactSearchResult]
    let count: Int
    let query: String
}
private struct FactListResponse: Codable {
    let facts: [Fact]
    let count: Int
    let limit: Int
    let offset: Int
}
/// The extract response as the API document gives it.
private struct ExtractResponse: Codable {
    struct Extracted: Codable {
        let content: String
        let category: String?
        let confidence: Double?
    }
    let extracted: [Extracted]
    let created: [Fact]
    let count: Int
    let message: String
}

@Suite struct LucidClientModelTests {
    private func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    @Test func theLucidClientDecodesEveryResponse() async throws {
        let fixture = try await ServerFixture()
        let id = try #require(fixture.alice["Prefers SwiftUI over UIKit"]).id
        let decoder = decoder()
        try await fixture.test { client in
            let list = try await client.send(.get, "/v1/users/alice/facts?limit=50&offset=0&is_active=true")
            let facts = try decoder.decode(FactListResponse.self, from: list.body)
            #expect(facts.count == 4)
            #expect(facts.facts.allSatisfy { $0.userId == "alice" && $0.isActive })
            #expect(facts.facts.allSatisfy { abs($0.createdAt.timeIntervalSinceNow) < 600 })

            let updated = try await client.send(.patch, "/v1/facts/\(id)", json: #"{"is_active": false}"#)
            let fact = try decoder.decode(Fact.self, from: updated.body)
            #expect(fact.id == String(id))
            #expect(!fact.isActive)

            let search = try await client.send(
                .post, "/v1/facts/search",
                json: """
                    {"query": "What does Lucid know about my work?", "user_id": "alice", "limit": 10, "min_similarity": 0.0}
                    """)
            let results = try decoder.decode(FactSearchResponse.self, from: search.body)
            #expect(results.query == "What does Lucid know about my work?")
            #expect(results.count == results.results.count)
            #expect(!results.results.isEmpty)

            let extract = try await client.send(
                .post, "/v1/facts/extract",
                json: """
                    {"user_id": "alice", "conversation_id": "conv-1", "limit": 20,
                     "extracted": [{"content": "User is a software engineer", "category": "profession", "confidence": 0.95}]}
                    """)
            let extracted = try decoder.decode(ExtractResponse.self, from: extract.body)
            #expect(extracted.count == 1)
            #expect(extracted.created.map(\.content) == ["User is a software engineer"])
            #expect(extracted.extracted.first?.category == "profession")
        }
    }
}
