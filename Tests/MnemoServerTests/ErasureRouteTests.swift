import Foundation
import Hummingbird
import HummingbirdTesting
import Mnemo
import Testing

@testable import MnemoServer

/// The routes that erase: a user's whole memory (both API families) and one fact.
@Suite struct ErasureRouteTests {
    @Test func lucidErasesTheCallersMemoryOnly() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            #expect(try await client.send(.delete, "/v1/users/bob/memory").status == .forbidden)
            let response = try await client.send(.delete, "/v1/users/alice/memory")
            #expect(response.status == .ok)
            let receipt = try response.object()
            #expect(receipt["namespace"] as? String == "alice")
            #expect(receipt["facts"] as? Int == 4)
            #expect(receipt["reason"] as? String == "namespace_erased")
            #expect((receipt["erased_at"] as? String)?.hasSuffix("Z") == true)
            let list = try await client.send(.get, "/v1/users/alice/facts").object()
            #expect(list["count"] as? Int == 0)
        }
        #expect(try await fixture.knowledgeBase.inNamespace("bob").facts().count == 2)
    }

    @Test func mindChatErasesTheCallersKnowledge() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let response = try await client.send(.delete, "/api/knowledge", token: ServerFixture.bobToken)
            #expect(response.status == .ok)
            #expect(try response.object()["facts"] as? Int == 2)
            #expect(try await client.send(.get, "/api/topics", token: ServerFixture.bobToken).array().isEmpty)
            #expect(try await client.send(.delete, "/api/knowledge", token: nil).status == .unauthorized)
        }
        #expect(try await fixture.knowledgeBase.inNamespace("alice").facts().count == 4)
    }

    @Test func deleteKeepsItsMeaningAndEraseTrueErases() async throws {
        let fixture = try await ServerFixture()
        let deleted = try #require(fixture.alice["Runs a marathon every spring"])
        let erased = try #require(fixture.alice["Wants to learn Rust this year"])
        let bobs = try #require(fixture.bob["Plays the cello in an orchestra"])
        let alice = try fixture.knowledgeBase.inNamespace("alice")
        try await fixture.test { client in
            #expect(try await client.send(.delete, "/api/facts/\(deleted.id)").status == .noContent)
            let response = try await client.send(.delete, "/api/facts/\(erased.id)?erase=true")
            #expect(response.status == .ok)
            #expect(try response.object()["fact_ids"] as? [Int] == [Int(erased.id)])
            #expect(try await client.send(.delete, "/api/facts/\(bobs.id)?erase=true").status == .notFound)
            #expect(try await client.send(.delete, "/api/facts/\(erased.id)?erase=maybe").status == .badRequest)
        }
        #expect(try await alice.history(ofFact: deleted.id).last?.kind == .deleted, "a delete stays undoable")
        #expect(try await alice.history(ofFact: erased.id).isEmpty)
        #expect(try await fixture.knowledgeBase.inNamespace("bob").fact(id: bobs.id) != nil)
    }
}
