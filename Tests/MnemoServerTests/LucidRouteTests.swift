import Foundation
import Hummingbird
import HummingbirdTesting
import Mnemo
import Testing

@testable import MnemoServer

@Suite struct LucidRouteTests {
    @Test func listsTheUsersFactsWithIDsAsStrings() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let response = try await client.send(.get, "/v1/users/alice/facts?limit=2&offset=0")
            #expect(response.status == .ok)
            let body = try response.object()
            let facts = try #require(body["facts"] as? [[String: Any]])
            #expect(facts.count == 2)
            #expect(body["count"] as? Int == 2)
            #expect(body["limit"] as? Int == 2)
            #expect(body["offset"] as? Int == 0)
            #expect(facts.allSatisfy { $0["id"] is String && $0["user_id"] as? String == "alice" })

            let rest = try await client.send(.get, "/v1/users/alice/facts?limit=50&offset=2").object()
            #expect((rest["facts"] as? [Any])?.count == 2)
        }
    }

    @Test func filtersTheListByActiveState() async throws {
        let fixture = try await ServerFixture()
        let rust = try #require(fixture.alice["Wants to learn Rust this year"])
        try await fixture.knowledgeBase.inNamespace("alice").deactivateFact(id: rust.id)
        try await fixture.test { client in
            let active = try await client.send(.get, "/v1/users/alice/facts?is_active=true").object()
            let inactive = try await client.send(.get, "/v1/users/alice/facts?is_active=false").object()
            let all = try await client.send(.get, "/v1/users/alice/facts").object()
            #expect(active["count"] as? Int == 3)
            #expect(((inactive["facts"] as? [[String: Any]])?.map { $0["id"] as? String }) == [String(rust.id)])
            #expect(all["count"] as? Int == 4)
            #expect(
                try await client.send(.get, "/v1/users/alice/facts?is_active=maybe").errorCode() == "invalid_parameter")
            #expect(try await client.send(.get, "/v1/users/alice/facts?limit=0").status == .badRequest)
            #expect(try await client.send(.get, "/v1/users/alice/facts?offset=-1").status == .badRequest)
        }
    }

    @Test func anotherUsersListIsForbidden() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let response = try await client.send(.get, "/v1/users/bob/facts")
            #expect(response.status == .forbidden)
            #expect(try response.errorCode() == "forbidden")
        }
    }

    @Test func updatesAnySubsetOfFields() async throws {
        let fixture = try await ServerFixture()
        let fact = try #require(fixture.alice["Prefers SwiftUI over UIKit"])
        try await fixture.test { client in
            let deactivated = try await client.send(.patch, "/v1/facts/\(fact.id)", json: #"{"is_active": false}"#)
            #expect(deactivated.status == .ok)
            #expect(try deactivated.object()["is_active"] as? Bool == false)
            #expect(try deactivated.object()["id"] as? String == String(fact.id))

            let edited = try await client.send(
                .patch, "/v1/facts/\(fact.id)",
                json:
                    #"{"content": "Prefers SwiftUI to UIKit", "confidence": 0.8, "category": "Technology/Swift", "is_active": true}"#
            )
            let body = try edited.object()
            #expect(edited.status == .ok)
            #expect(body["content"] as? String == "Prefers SwiftUI to UIKit")
            #expect(body["confidence"] as? Double == 0.8)
            #expect(body["category"] as? String == "Technology/Swift")
            #expect(body["is_active"] as? Bool == true)
        }
        let stored = try #require(try await fixture.knowledgeBase.inNamespace("alice").fact(id: fact.id))
        #expect(stored.content == "Prefers SwiftUI to UIKit")
        #expect(stored.isActive)
    }

    @Test func refusesBadUpdatesWithTheIngestCodes() async throws {
        let fixture = try await ServerFixture()
        let id = try #require(fixture.alice["Prefers SwiftUI over UIKit"]).id
        try await fixture.test { client in
            let cases: [(String, String)] = [
                (#"{"type": "opinion"}"#, "unknown_type"),
                (#"{"importance": "urgent"}"#, "unknown_importance"),
                (#"{"confidence": 1.5}"#, "confidence_out_of_range"),
                (#"{"content": "   "}"#, "empty_content"),
                (#"{"is_active": "no"}"#, "wrong_field_type"),
                (#"{"colour": "blue"}"#, "nothing_to_update"),
                (#"{"content": "#, "invalid_json"),
                (#"[1, 2]"#, "not_an_object"),
                (#"{"topic": "a//b"}"#, "bad_topic"),
            ]
            for (json, code) in cases {
                let response = try await client.send(.patch, "/v1/facts/\(id)", json: json)
                #expect(response.status == .badRequest, "\(json)")
                #expect(try response.errorCode() == code, "\(json): \(response.text)")
            }
        }
    }

    @Test func anotherUsersFactIsNotFound() async throws {
        let fixture = try await ServerFixture()
        let bobs = try #require(fixture.bob["Plays the cello in an orchestra"])
        try await fixture.test { client in
            let foreign = try await client.send(.patch, "/v1/facts/\(bobs.id)", json: #"{"is_active": false}"#)
            let missing = try await client.send(.patch, "/v1/facts/999999", json: #"{"is_active": false}"#)
            let notAnID = try await client.send(.patch, "/v1/facts/abc", json: #"{"is_active": false}"#)
            #expect(foreign.status == .notFound)
            #expect(missing.status == .notFound)
            #expect(notAnID.status == .notFound)
            // The same answer for a foreign id as for one that does not exist: ids leak nothing.
            #expect(try foreign.errorCode() == "not_found")
            #expect(try missing.errorCode() == "not_found")
            #expect(foreign.text == missing.text.replacingOccurrences(of: "999999", with: String(bobs.id)))
            let naming = try await client.send(
                .patch, "/v1/facts/\(bobs.id)", json: #"{"user_id": "bob", "is_active": false}"#)
            #expect(naming.status == .forbidden)
        }
        #expect(try await fixture.knowledgeBase.inNamespace("bob").fact(id: bobs.id)?.isActive == true)
    }

    @Test func searchesByMeaningWithSimilarities() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let response = try await client.send(
                .post, "/v1/facts/search",
                json: """
                    {"query": "software engineer", "user_id": "alice", "limit": 3, "min_similarity": 0.1}
                    """)
            #expect(response.status == .ok)
            let body = try response.object()
            let results = try #require(body["results"] as? [[String: Any]])
            #expect(body["query"] as? String == "software engineer")
            #expect(body["count"] as? Int == results.count)
            #expect(body["mode"] as? String == "semantic")
            let first = try #require(results.first)
            #expect((first["fact"] as? [String: Any])?["content"] as? String == "Works as a software engineer in Porto")
            let similarities = results.compactMap { $0["similarity"] as? Double }
            #expect(similarities.count == results.count)
            #expect(similarities.allSatisfy { $0 >= 0.1 })
            #expect(similarities == similarities.sorted(by: >))
        }
    }

    @Test func searchFiltersByTypeImportanceTopicAndMode() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            func contents(_ json: String) async throws -> [String] {
                let response = try await client.send(.post, "/v1/facts/search", json: json)
                #expect(response.status == .ok, "\(response.text)")
                return try (response.object()["results"] as? [[String: Any]] ?? []).compactMap {
                    ($0["fact"] as? [String: Any])?["content"] as? String
                }
            }
            let goal = try await contents(#"{"query": "swift rust marathon porto", "type": "goal"}"#)
            let goalOrExperience = try await contents(
                #"{"query": "swift rust marathon porto", "type": ["goal", "experience"], "limit": 10}"#)
            let high = try await contents(#"{"query": "swift rust marathon porto", "importance": "high"}"#)
            let technology = try await contents(#"{"query": "swift rust marathon porto", "topic": "technology"}"#)
            let text = try await contents(#"{"query": "marathon", "mode": "text"}"#)
            let hybrid = try await contents(#"{"query": "marathon", "mode": "hybrid"}"#)
            let cello = try await contents(#"{"query": "cello orchestra kotlin", "limit": 50}"#)
            #expect(goal == ["Wants to learn Rust this year"])
            #expect(goalOrExperience.sorted() == ["Runs a marathon every spring", "Wants to learn Rust this year"])
            #expect(high.sorted() == ["Prefers SwiftUI over UIKit", "Works as a software engineer in Porto"])
            #expect(technology.sorted() == ["Prefers SwiftUI over UIKit", "Wants to learn Rust this year"])
            #expect(text == ["Runs a marathon every spring"])
            #expect(hybrid.first == "Runs a marathon every spring")
            // Bob's facts never appear in Alice's results.
            #expect(!cello.contains { $0.contains("cello") })
        }
    }

    @Test func refusesBadSearches() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let cases: [(String, String)] = [
                (#"{"user_id": "alice"}"#, "missing_query"),
                (#"{"query": "x", "mode": "fuzzy"}"#, "unknown_mode"),
                (#"{"query": "x", "type": "opinion"}"#, "unknown_type"),
                (#"{"query": "x", "importance": ["high", "huge"]}"#, "unknown_importance"),
                (#"{"query": "x", "limit": "ten"}"#, "wrong_field_type"),
                (#"{"query": "x", "limit": 100000}"#, "invalid_parameter"),
                (#"{"query": "x", "min_similarity": 3}"#, "invalid_parameter"),
            ]
            for (json, code) in cases {
                let response = try await client.send(.post, "/v1/facts/search", json: json)
                #expect(response.status == .badRequest, "\(json)")
                #expect(try response.errorCode() == code, "\(json): \(response.text)")
            }
            #expect(
                try await client.send(.post, "/v1/facts/search", json: "{\"query\": \"x\", \"user_id\": \"bob\"}")
                    .status == .forbidden)
        }
    }

    @Test func extractStoresTheExtractedFactsWithTheConversationAsSource() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let response = try await client.send(
                .post, "/v1/facts/extract",
                json: """
                    {"user_id": "alice", "conversation_id": "conv-7", "limit": 20,
                     "extracted": [{"content": "User is a software engineer", "category": "profession", "confidence": 0.95},
                                   {"content": "User has a dog named Miso", "category": "pets", "confidence": 0.7},
                                   {"content": "Prefers SwiftUI over UIKit.", "category": "preference"}]}
                    """)
            #expect(response.status == .created, "\(response.text)")
            let body = try response.object()
            let created = try #require(body["created"] as? [[String: Any]])
            #expect(
                created.map { $0["content"] as? String } == [
                    "User is a software engineer", "User has a dog named Miso",
                ])
            #expect(
                created.allSatisfy { ($0["sources"] as? [String]) == ["conv-7"] && $0["user_id"] as? String == "alice" }
            )
            #expect(created.first?["category"] as? String == "Profession")
            #expect(created.first?["importance"] as? String == "high")
            #expect(body["count"] as? Int == 2)
            #expect((body["extracted"] as? [Any])?.count == 3)
            // The third repeats a stored fact: not stored twice, reported as updated.
            let updated = try #require(body["updated"] as? [[String: Any]])
            #expect(updated.map { $0["content"] as? String } == ["Prefers SwiftUI over UIKit"])
            #expect(updated.first?["mention_count"] as? Int == 2)
            #expect(body["message"] as? String == "Extracted 3 facts, created 2 successfully, 1 already known")
        }
        let facts = try await fixture.knowledgeBase.inNamespace("alice").facts(matching: FactFilter(activity: .all))
        #expect(facts.count == 6)
    }

    @Test func extractWithoutExtractedFactsSaysExtractionHappensUpstream() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let response = try await client.send(
                .post, "/v1/facts/extract", json: #"{"user_id": "alice", "conversation_id": "c", "limit": 20}"#)
            #expect(response.status == .unprocessableContent)
            #expect(try response.errorCode() == "extraction_upstream")
            let message = try #require((try response.object()["error"] as? [String: Any])?["message"] as? String)
            #expect(message.contains("extracted"))
        }
    }

    @Test func extractRefusesTheWholeListWhenARecordIsBad() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let response = try await client.send(
                .post, "/v1/facts/extract",
                json: """
                    {"user_id": "alice", "conversation_id": "c",
                     "extracted": [{"content": "Good fact", "confidence": 0.9},
                                   {"content": "Bad confidence", "confidence": 7},
                                   {"category": "no content"},
                                   {"content": "Bad type", "type": "opinion"}]}
                    """)
            #expect(response.status == .badRequest)
            let error = try #require(try response.object()["error"] as? [String: Any])
            #expect(error["code"] as? String == "confidence_out_of_range")
            let rejected = try #require(error["rejected"] as? [[String: Any]])
            #expect(
                rejected.map { $0["code"] as? String } == [
                    "confidence_out_of_range", "missing_content", "unknown_type",
                ])
            #expect(rejected.map { $0["record"] as? Int } == [2, 3, 4])
            #expect(rejected.map { $0["line"] as? Int } == [3, 4, 5])

            #expect(
                try await client.send(.post, "/v1/facts/extract", json: "{\"extracted\": {\"content\": \"x\"}}")
                    .errorCode() == "wrong_field_type")
            #expect(
                try await client.send(.post, "/v1/facts/extract", json: "{\"user_id\": \"bob\", \"extracted\": []}")
                    .status == .forbidden)
            let smuggled = try await client.send(
                .post, "/v1/facts/extract", json: #"{"extracted": [{"content": "x", "namespace": "bob"}]}"#)
            #expect(smuggled.status == .forbidden)
        }
        let facts = try await fixture.knowledgeBase.inNamespace("alice").facts(matching: FactFilter(activity: .all))
        #expect(facts.count == 4)
        #expect(try await fixture.knowledgeBase.inNamespace("bob").facts().count == 2)
    }
}
