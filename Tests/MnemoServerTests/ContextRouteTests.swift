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
            // An important fact comes as a standing fact, or as a hit for the message, or after them.
            #expect(
                items.filter { $0["importance"] as? String == "high" }.allSatisfy {
                    ["always", "relevant"].contains($0["why"] as? String)
                })
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

    @Test func goalsMoveThroughBothPatchRoutesAndFilterListingsAndSearch() async throws {
        let fixture = try await ServerFixture()
        let goal = try #require(fixture.alice["Wants to learn Rust this year"])
        let plain = try #require(fixture.alice["Prefers SwiftUI over UIKit"])
        try await fixture.test { client in
            let lucid = try await client.send(
                .patch, "/v1/facts/\(goal.id)",
                json: #"{"user_id": "alice", "progress": 0.5, "target_date": "2026-03-31"}"#
            ).object()
            #expect(lucid["progress"] as? Double == 0.5)
            #expect(lucid["target_date"] as? String == "2026-03-31T00:00:00Z")
            let mindChat = try await client.send(.patch, "/api/facts/\(goal.id)", json: #"{"status": "completed"}"#)
                .object()
            #expect(mindChat["status"] as? String == "completed" && mindChat["completed_at"] is String)
            let refused = try await client.send(.patch, "/api/facts/\(plain.id)", json: #"{"progress": 0.5}"#)
            #expect(refused.status == .badRequest)
            #expect(
                try await client.send(.patch, "/api/facts/\(goal.id)", json: #"{"status": "done"}"#).errorCode()
                    == "unknown_status")
            let active = try await client.send(.get, "/v1/users/alice/facts?status=active").object()
            #expect((active["facts"] as? [Any])?.isEmpty == true)
            let completed = try await client.send(.get, "/api/topics/search?q=rust&mode=text&status=completed").object()
            #expect((completed["results"] as? [[String: Any]])?.map { $0["id"] as? Int } == [Int(goal.id)])
        }
    }

    @Test func userContextAnswersThePeriodsThreeParts() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let period = try await client.send(.get, "/api/user-context?window=30d&budget=300").object()
            for part in ["active_goals", "completed_goals", "experiences"] {
                let section = try #require(period[part] as? [String: Any])
                #expect((section["tokens"] as? Int ?? 101) <= 100)
            }
            let posted = try await client.send(
                .post, "/v1/user-context", json: #"{"user_id": "alice", "window": "2w", "budget_tokens": 600}"#)
            #expect(posted.status == .ok)
            #expect(try await client.send(.get, "/api/user-context?window=soon").errorCode() == "invalid_parameter")
        }
    }
}
