import Foundation
import Hummingbird
import HummingbirdTesting
import Mnemo
import Testing

@testable import MnemoServer

/// `expires_at` over the wire: set and cleared by PATCH, shown on facts, honoured by listings.
@Suite struct RetentionRouteTests {
    @Test func patchSetsAndClearsTheExpiry() async throws {
        let fixture = try await ServerFixture()
        let fact = try #require(fixture.alice["Wants to learn Rust this year"])
        try await fixture.test { client in
            let set = try await client.send(
                .patch, "/api/facts/\(fact.id)", json: #"{"expires_at": "2031-01-01T00:00:00Z"}"#)
            #expect(set.status == .ok)
            #expect(try set.object()["expires_at"] as? String == "2031-01-01T00:00:00Z")
            let past = try await client.send(
                .patch, "/v1/facts/\(fact.id)", json: #"{"expires_at": "2020-01-01T00:00:00Z"}"#)
            #expect(try past.object()["expires_at"] as? String == "2020-01-01T00:00:00Z")
            let list = try await client.send(.get, "/v1/users/alice/facts").object()
            #expect((list["facts"] as? [[String: Any]])?.contains { $0["id"] as? String == String(fact.id) } == false)
            let cleared = try await client.send(.patch, "/api/facts/\(fact.id)", json: #"{"expires_at": null}"#)
            #expect(cleared.status == .ok)
            #expect(try cleared.object()["expires_at"] == nil)
            let bad = try await client.send(.patch, "/api/facts/\(fact.id)", json: #"{"expires_at": "next tuesday"}"#)
            #expect(bad.status == .badRequest)
            #expect(try bad.errorCode() == "bad_date")
        }
    }
}
