import Foundation
import Hummingbird
import HummingbirdTesting
import Mnemo
import Testing

@testable import MnemoServer

@Suite struct LiveServerTests {
    /// One run over a real socket: the server listens on a loopback port and a real HTTP client
    /// talks to it.
    @Test func servesBothAPIsOverARealSocket() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test(.live) { client in
            #expect(client.port != nil)
            #expect(try await client.send(.get, "/healthz", token: nil).status == .ok)
            #expect(try await client.send(.get, "/v1/users/alice/facts").status == .ok)
            let search = try await client.send(
                .post, "/v1/facts/search", json: #"{"query": "marathon", "mode": "hybrid"}"#)
            #expect(search.status == .ok)
            let extract = try await client.send(
                .post, "/v1/facts/extract",
                json: #"{"conversation_id": "c9", "extracted": [{"content": "Lives in Porto"}]}"#)
            #expect(extract.status == .created)
            #expect(
                try await client.send(.get, "/api/topics/search?q=porto&mode=text").object()["results"].map {
                    ($0 as? [Any])?.count
                } == 2)
            #expect(try await client.send(.get, "/api/topics", token: nil).status == .unauthorized)
        }
    }
}
