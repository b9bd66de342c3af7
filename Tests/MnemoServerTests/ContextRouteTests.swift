import Foundation
import Hummingbird
import HummingbirdTesting
import Mnemo
import Testing

@testable import MnemoServer

@Suite struct ContextRouteTests {
    @Test func postV1ContextAnswersWithinTheBudget() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let response = try await client.send(
                .post, "/v1/context",
                json: #"{"user_id": "alice", "message": "which UI framework do I like?", "budget_tokens": 300}"#)
            #expect(response.status == .ok)
            let body = try response.object()
            let tokens = try #require(body["tokens"] as? Int)
            #expect(tokens <= 300 && tokens > 0)
            #expect((body["context"] as? String)?.contains("Prefers SwiftUI over UIKit") == true, "\(body)")
            let items = try #require(body["items"] as? [[String: Any]])
            #expect(items.allSatisfy { $0["created_at"] is String && $0["why"] is String && $0["tokens"] is Int })
            #expect(
                items.filter { $0["importance"] as? String == "high" }.allSatisfy { $0["why"] as? String == "always" })
            #expect(!(body["context"] as? String ?? "").contains("cello")) // bob's
        }
    }

    @Test func getApiContextTakesTheFiltersOfTheVocabulary() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let ok = try await client.send(.get, "/api/context?q=marathon&budget=300&since=2000-01&until=1d")
            #expect(ok.status == .ok)
            let future = try await client.send(.get, "/api/context?q=marathon&budget=300&since=2999").object()
            #expect((future["items"] as? [Any])?.isEmpty == true)
            #expect(
                try await client.send(.get, "/api/context?q=marathon&since=last+week").errorCode()
                    == "invalid_parameter")
            #expect(try await client.send(.get, "/api/context?q=marathon&budget=-1").status == .badRequest)
            #expect(try await client.send(.get, "/api/context").errorCode() == "missing_query")
            #expect(
                try await client.send(.post, "/v1/context", json: #"{"user_id": "bob", "message": "x"}"#).status
                    == .forbidden)
        }
    }

    @Test func searchRoutesFilterByTheDateStated() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let all = try await client.send(.get, "/api/topics/search?q=swiftui&mode=text").object()
            #expect((all["results"] as? [[String: Any]])?.first?["created_at"] is String)
            let none = try await client.send(.get, "/api/topics/search?q=swiftui&mode=text&until=2001-01-01").object()
            #expect((none["results"] as? [Any])?.isEmpty == true)
            let lucid = try await client.send(
                .post, "/v1/facts/search",
                json: #"{"user_id": "alice", "query": "swiftui", "mode": "text", "since": "2999-01"}"#
            ).object()
            #expect(lucid["count"] as? Int == 0)
        }
    }
}
