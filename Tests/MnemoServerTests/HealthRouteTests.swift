import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Mnemo
import Testing

@testable import MnemoServer

/// `/healthz` (readiness) and `/livez` (liveness), and the stale mark of answers while the
/// shared store does not answer, on a server given the store's status as a node is.
@Suite struct HealthRouteTests {
    static func server(status: StorageStatus?) throws -> (MnemoHTTPServer, KnowledgeBase) {
        let kb = try KnowledgeBase.inMemory(embedder: HashingEmbedder())
        var configuration = ServerConfiguration(port: 0, storageStatus: status)
        if let status {
            configuration.storageHealth = { @Sendable in
                StorageHealth(
                    namespacesHeld: 1, vectorBytes: 0, versionsBehind: 0, changeFeedConnected: false,
                    status: status.current)
            }
        }
        return (try MnemoHTTPServer(knowledgeBase: kb, configuration: configuration, authentication: .none), kb)
    }

    @Test func aDatabaseFileIsAlwaysReady() async throws {
        let (server, _) = try Self.server(status: nil)
        try await server.application().test(.router) { client in
            let health = try await client.send(.get, "/healthz", token: nil)
            #expect(health.status == .ok)
            #expect(try health.object()["status"] as? String == "ok")
            #expect(try health.object()["version"] as? String == MnemoVersion.current)
            let live = try await client.send(.get, "/livez", token: nil)
            #expect(live.status == .ok)
            #expect(try live.object()["version"] as? String == MnemoVersion.current)
        }
    }

    @Test("While the store does not answer: /healthz 503 with its state, /livez 200, answers marked stale")
    func aStoreOutageShows() async throws {
        let status = StorageStatus()
        let (server, kb) = try Self.server(status: status)
        try await kb.inNamespace("alice").addFact(NewFact(content: "Has a cat", topicPath: "Home"))
        try await server.application().test(.router) { client in
            let ready = try await client.send(.get, "/healthz", token: nil)
            #expect(ready.status == .ok)
            #expect((try ready.object()["storage"] as? [String: Any])?["state"] as? String == "available")
            let fresh = try await client.send(.get, "/v1/users/alice/facts", token: nil)
            #expect(fresh.status == .ok && fresh.headers[.mnemoStale] == nil)

            let lastContact = Date().addingTimeInterval(-7.5)
            status.update(.unavailable(since: Date(), lastContact: lastContact, reason: "connection refused"))
            let down = try await client.send(.get, "/healthz", token: nil)
            #expect(down.status == .serviceUnavailable)
            let object = try down.object()
            #expect(object["status"] as? String == "storage_unavailable")
            let storage = try #require(object["storage"] as? [String: Any])
            #expect(storage["state"] as? String == "unavailable")
            #expect(storage["reason"] as? String == "connection refused")
            // At least the 7.5 s since the last contact; more when the machine is slow.
            #expect((storage["stale_seconds"] as? Int ?? 0) >= 8, "\(storage)")
            #expect(storage["unavailable_since"] is String)
            let live = try await client.send(.get, "/livez", token: nil)
            #expect(live.status == .ok)
            let stale = try await client.send(.get, "/v1/users/alice/facts", token: nil)
            #expect(stale.status == .ok && stale.text.contains("Has a cat"))
            #expect((stale.headers[.mnemoStale].flatMap { Int($0) } ?? 0) >= 8, "\(stale.headers)")
            // A refusal is not an answer from the copy.
            let missing = try await client.send(.get, "/api/topics/999999", token: nil)
            #expect(missing.status == .notFound && missing.headers[.mnemoStale] == nil)
            let metrics = try await client.send(.get, "/metrics", token: nil)
            #expect(metrics.text.contains("mnemo_storage_available 0"))

            status.update(.available)
            let back = try await client.send(.get, "/healthz", token: nil)
            #expect(back.status == .ok)
            let after = try await client.send(.get, "/v1/users/alice/facts", token: nil)
            #expect(after.headers[.mnemoStale] == nil)
        }
    }

    @Test func aStorageRefusalCarriesRetryAfter() {
        let answer = APIError.from(MnemoError.storageUnavailable(reason: "PostgreSQL is down"))
        #expect(answer.status == .serviceUnavailable)
        #expect(answer.code == "storage_unavailable")
        #expect(answer.headers[.retryAfter] == "1")
    }
}
