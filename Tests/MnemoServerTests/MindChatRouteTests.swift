import Foundation
import Hummingbird
import HummingbirdTesting
import Mnemo
import Testing

@testable import MnemoServer

@Suite struct MindChatRouteTests {
    @Test func servesTheUsersTopicTree() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let response = try await client.send(.get, "/api/topics")
            #expect(response.status == .ok)
            let roots = try response.array().compactMap { $0 as? [String: Any] }
            #expect(
                roots.compactMap { $0["path"] as? String }.sorted() == ["Health & Fitness", "Profession", "Technology"])
            let technology = try #require(roots.first { $0["name"] as? String == "Technology" })
            #expect(technology["fact_count"] as? Int == 1)
            #expect(technology["subtree_fact_count"] as? Int == 2)
            #expect(
                (technology["children"] as? [[String: Any]])?.first?["path"] as? String == "Technology/iOS Development")

            let bobs = try await client.send(.get, "/api/topics", token: ServerFixture.bobToken).array()
            #expect(bobs.compactMap { ($0 as? [String: Any])?["path"] as? String }.sorted() == ["Music", "Technology"])
        }
    }

    @Test func servesATopicByIDAndByPath() async throws {
        let fixture = try await ServerFixture()
        let technology = try #require(fixture.alice["Wants to learn Rust this year"]).topicID
        try await fixture.test { client in
            let byID = try await client.send(.get, "/api/topics/\(technology)")
            #expect(byID.status == .ok)
            let topic = try byID.object()
            #expect(topic["path"] as? String == "Technology")
            #expect((topic["children"] as? [[String: Any]])?.map { $0["name"] as? String } == ["iOS Development"])
            #expect((topic["facts"] as? [[String: Any]])?.count == 2)

            let byPath = try await client.send(.get, "/api/topics/lookup?path=technology/IOS%20development")
            #expect(byPath.status == .ok)
            #expect(try byPath.object()["path"] as? String == "Technology/iOS Development")
            #expect(
                (try byPath.object()["facts"] as? [[String: Any]])?.first?["content"] as? String
                    == "Prefers SwiftUI over UIKit")

            #expect(try await client.send(.get, "/api/topics/lookup?path=Nowhere").status == .notFound)
            #expect(try await client.send(.get, "/api/topics/lookup").errorCode() == "missing_path")
            #expect(try await client.send(.get, "/api/topics/lookup?path=a//b").errorCode() == "bad_topic")
            #expect(try await client.send(.get, "/api/topics/999999").status == .notFound)
            #expect(try await client.send(.get, "/api/topics/xyz").status == .notFound)
        }
    }

    @Test func anotherUsersTopicIsNotFound() async throws {
        let fixture = try await ServerFixture()
        let music = try #require(fixture.bob["Plays the cello in an orchestra"]).topicID
        try await fixture.test { client in
            let response = try await client.send(.get, "/api/topics/\(music)")
            #expect(response.status == .notFound)
            #expect(try await client.send(.get, "/api/topics/lookup?path=Music").status == .notFound)
            #expect(try await client.send(.get, "/api/topics/\(music)", token: ServerFixture.bobToken).status == .ok)
        }
    }

    @Test func searchesWithFilters() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let all = try await client.send(.get, "/api/topics/search?q=swiftui")
            #expect(all.status == .ok)
            let body = try all.object()
            #expect(body["mode"] as? String == "hybrid")
            let first = try #require((body["results"] as? [[String: Any]])?.first)
            #expect(first["content"] as? String == "Prefers SwiftUI over UIKit")
            #expect(first["snippet"] as? String == "Prefers [SwiftUI] over UIKit")

            func contents(_ uri: String) async throws -> [String] {
                let response = try await client.send(.get, uri)
                #expect(response.status == .ok, "\(uri): \(response.text)")
                return try (response.object()["results"] as? [[String: Any]] ?? []).compactMap {
                    $0["content"] as? String
                }
            }
            #expect(
                try await contents("/api/topics/search?q=swift%20rust%20marathon&type=goal") == [
                    "Wants to learn Rust this year"
                ])
            #expect(
                try await contents("/api/topics/search?q=swift%20rust%20marathon&type=goal&type=experience").sorted()
                    == ["Runs a marathon every spring", "Wants to learn Rust this year"])
            #expect(
                try await contents("/api/topics/search?q=swift%20rust%20marathon&type=goal,experience&importance=low")
                    == ["Wants to learn Rust this year"])
            #expect(
                try await contents("/api/topics/search?q=marathon&mode=text&limit=1") == [
                    "Runs a marathon every spring"
                ])
            let cello = try await contents("/api/topics/search?q=cello")
            #expect(!cello.contains { $0.contains("cello") })
            let celloText = try await contents("/api/topics/search?q=cello&mode=text")
            #expect(celloText.isEmpty)

            #expect(try await client.send(.get, "/api/topics/search").errorCode() == "missing_query")
            #expect(try await client.send(.get, "/api/topics/search?q=x&type=opinion").errorCode() == "unknown_type")
            #expect(
                try await client.send(.get, "/api/topics/search?q=x&importance=huge").errorCode()
                    == "unknown_importance")
            #expect(try await client.send(.get, "/api/topics/search?q=x&mode=fuzzy").errorCode() == "unknown_mode")
            #expect(try await client.send(.get, "/api/topics/search?q=x&limit=many").errorCode() == "invalid_parameter")
            #expect(
                try await client.send(.get, "/api/topics/search?q=x&min_similarity=high").errorCode()
                    == "invalid_parameter")
        }
    }

    @Test func servesStats() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let stats = try await client.send(.get, "/api/topics/stats").object()
            #expect(stats["facts"] as? Int == 4)
            #expect(stats["active_facts"] as? Int == 4)
            #expect(stats["topics"] as? Int == 5)
            #expect((stats["by_type"] as? [String: Int])?["preference"] == 1)
            #expect((stats["by_importance"] as? [String: Int])?["high"] == 2)
        }
    }

    @Test func mergesTopicsByPathOrID() async throws {
        let fixture = try await ServerFixture()
        let running = try #require(fixture.alice["Runs a marathon every spring"]).topicID
        try await fixture.test { client in
            let dryRun = try await client.send(
                .post, "/api/topics/merge",
                json: #"{"sources": ["Profession"], "target": "Technology", "dry_run": true}"#)
            #expect(dryRun.status == .ok)
            #expect(try dryRun.object()["dry_run"] as? Bool == true)
            #expect(try await client.send(.get, "/api/topics/lookup?path=Profession").status == .ok)

            let merged = try await client.send(
                .post, "/api/topics/merge", json: "{\"sources\": [\(running)], \"into\": \"Profession\"}")
            #expect(merged.status == .ok, "\(merged.text)")
            let report = try merged.object()
            #expect(report["target"] as? String == "Profession")
            #expect(report["merged_topics"] as? [String] == ["Health & Fitness/Running"])
            #expect(report["moved_facts"] as? Int == 1)
            #expect(try await client.send(.get, "/api/topics/\(running)").status == .notFound)

            #expect(
                try await client.send(.post, "/api/topics/merge", json: "{\"sources\": [], \"target\": \"X\"}")
                    .errorCode() == "wrong_field_type")
            #expect(
                try await client.send(.post, "/api/topics/merge", json: "{\"sources\": [\"Profession\"]}").errorCode()
                    == "wrong_field_type")
            #expect(
                try await client.send(.post, "/api/topics/merge", json: "{\"sources\": [999999], \"target\": \"X\"}")
                    .status == .notFound)
            #expect(
                try await client.send(
                    .post, "/api/topics/merge", json: "{\"sources\": [\"Nowhere\"], \"target\": \"X\"}"
                ).status == .notFound)
        }
    }

    @Test func mergingAnotherUsersTopicByIDIsNotFound() async throws {
        let fixture = try await ServerFixture()
        let music = try #require(fixture.bob["Plays the cello in an orchestra"]).topicID
        try await fixture.test { client in
            let response = try await client.send(
                .post, "/api/topics/merge", json: "{\"sources\": [\(music)], \"target\": \"Stolen\"}")
            #expect(response.status == .notFound)
        }
        #expect(try await fixture.knowledgeBase.inNamespace("bob").topic(at: "Music") != nil)
    }

    @Test func updatesAndDeletesFacts() async throws {
        let fixture = try await ServerFixture()
        let fact = try #require(fixture.alice["Wants to learn Rust this year"])
        try await fixture.test { client in
            let updated = try await client.send(
                .patch, "/api/facts/\(fact.id)", json: #"{"importance": "high", "topic": "Goals/Programming"}"#)
            #expect(updated.status == .ok)
            let body = try updated.object()
            #expect(body["id"] as? Int == Int(fact.id))
            #expect(body["importance"] as? String == "high")
            #expect(body["topic"] as? String == "Goals/Programming")

            let deleted = try await client.send(.delete, "/api/facts/\(fact.id)")
            #expect(deleted.status == .noContent)
            #expect(deleted.body.isEmpty)
            #expect(try await client.send(.delete, "/api/facts/\(fact.id)").status == .notFound)
            #expect(
                try await client.send(.patch, "/api/facts/\(fact.id)", json: "{\"importance\": \"low\"}").status
                    == .notFound)
        }
        #expect(try await fixture.knowledgeBase.inNamespace("alice").fact(id: fact.id) == nil)
    }

    @Test func anotherUsersFactCannotBeChangedOrDeleted() async throws {
        let fixture = try await ServerFixture()
        let bobs = try #require(fixture.bob["Prefers Kotlin to Java"])
        try await fixture.test { client in
            let patch = try await client.send(.patch, "/api/facts/\(bobs.id)", json: #"{"importance": "low"}"#)
            let delete = try await client.send(.delete, "/api/facts/\(bobs.id)")
            #expect(patch.status == .notFound)
            #expect(delete.status == .notFound)
        }
        #expect(try await fixture.knowledgeBase.inNamespace("bob").fact(id: bobs.id)?.importance == bobs.importance)
    }
}
