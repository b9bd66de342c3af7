import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import Mnemo
import Testing

@testable import MnemoServer

/// Fact limits over HTTP: the server's, each token's plan, 409 `quota_exceeded`, eviction.
@Suite struct QuotaRouteTests {
    /// A server whose tokens file gives MindChat's plans: a free user (50 facts), a pro user
    /// (1,000), a user on the server's own limit, and one without any.
    static func server(limit: Int? = 10, policy: QuotaPolicy = .reject) async throws -> MnemoHTTPServer {
        let kb = try KnowledgeBase.inMemory(embedder: HashingEmbedder()).withFactLimit(limit, policy: policy)
        let tokens = try Authentication.tokens(
            parsing: """
                free-token free-user fact-limit=50
                pro-token pro-user fact-limit=1000
                basic-token basic-user
                staff-token staff-user fact-limit=none
                """, file: "tokens")
        return try MnemoHTTPServer(
            knowledgeBase: kb, configuration: ServerConfiguration(host: "127.0.0.1", port: 0),
            authentication: tokens)
    }

    /// An extract body of `count` distinct facts, numbered from `first`.
    static func extract(_ count: Int, from first: Int = 1) -> String {
        let records = (first..<first + count).map {
            #"{"content": "The user's locker number is \#($0)", "category": "personal", "confidence": 0.9}"#
        }
        return #"{"extracted": [\#(records.joined(separator: ","))]}"#
    }

    @Test func eachTokenHasItsPlansLimit() async throws {
        try await Self.server().application().test(.router) { client in
            let free = try await client.send(.post, "/v1/facts/extract", token: "free-token", json: Self.extract(50))
            #expect(free.status == .created, "\(free.text)")
            #expect(try free.object()["count"] as? Int == 50)

            let over = try await client.send(
                .post, "/v1/facts/extract", token: "free-token", json: Self.extract(2, from: 50))
            #expect(over.status == .conflict)
            #expect(try over.errorCode() == "quota_exceeded")
            let error = try #require(try over.object()["error"] as? [String: Any])
            #expect((error["message"] as? String)?.contains("limit of 50 facts") == true)
            let rejected = try #require(error["rejected"] as? [[String: Any]])
            #expect(rejected.map { $0["record"] as? Int } == [2], "record 1 repeats a stored fact; record 2 is new")
            #expect(rejected.first?["code"] as? String == "quota_exceeded")

            let repeated = try await client.send(
                .post, "/v1/facts/extract", token: "free-token", json: Self.extract(1, from: 7))
            #expect(repeated.status == .created, "a repeat is never refused")

            let pro = try await client.send(.post, "/v1/facts/extract", token: "pro-token", json: Self.extract(60))
            #expect(pro.status == .created)
            #expect(try pro.object()["count"] as? Int == 60)

            let basic = try await client.send(.post, "/v1/facts/extract", token: "basic-token", json: Self.extract(11))
            #expect(basic.status == .conflict, "the server's limit of 10, all or nothing")
            let staff = try await client.send(.post, "/v1/facts/extract", token: "staff-token", json: Self.extract(11))
            #expect(staff.status == .created, "fact-limit=none lifts the server's limit")

            let stats = try await client.send(.get, "/api/topics/stats", token: "basic-token")
            #expect(try stats.object()["facts"] as? Int == 0)
        }
    }

    /// A JWT carries its user's plan in `fact_limit`; without the claim the server's limit holds.
    @Test func aJWTCarriesItsPlansLimit() async throws {
        let secret = "a-test-secret-of-32-bytes-length"
        let kb = try KnowledgeBase.inMemory(embedder: HashingEmbedder()).withFactLimit(10)
        let server = try MnemoHTTPServer(
            knowledgeBase: kb, configuration: ServerConfiguration(host: "127.0.0.1", port: 0),
            authentication: try await Authentication.jwt(secret: secret))
        let signer = JWTKeyCollection()
        await signer.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        let expiry = Date().addingTimeInterval(600)
        let free = try await signer.sign(NamespaceClaims(sub: "free-user", exp: expiry, factLimit: 3))
        let basic = try await signer.sign(NamespaceClaims(sub: "basic-user", exp: expiry))
        let broken = try await signer.sign(NamespaceClaims(sub: "odd-user", exp: expiry, factLimit: -1))
        try await server.application().test(.router) { client in
            let full = try await client.send(.post, "/v1/facts/extract", token: free, json: Self.extract(4))
            #expect(full.status == .conflict, "the token's plan of 3")
            #expect(try full.errorCode() == "quota_exceeded")
            let fits = try await client.send(.post, "/v1/facts/extract", token: free, json: Self.extract(3))
            #expect(fits.status == .created)
            let server = try await client.send(.post, "/v1/facts/extract", token: basic, json: Self.extract(4))
            #expect(server.status == .created, "the server's limit of 10")
            let refused = try await client.send(.get, "/api/topics/stats", token: broken)
            #expect(refused.status == .unauthorized, "a negative fact_limit makes the token invalid")
        }
    }

    @Test func anEvictingServerNamesWhatItDeleted() async throws {
        try await Self.server(limit: 2, policy: .evictLeastValuable).application().test(.router) { client in
            let first = try await client.send(.post, "/v1/facts/extract", token: "basic-token", json: Self.extract(2))
            let old = try #require((try first.object()["created"] as? [[String: Any]])?.first?["id"] as? String)
            let next = try await client.send(
                .post, "/v1/facts/extract", token: "basic-token", json: Self.extract(1, from: 3))
            #expect(next.status == .created)
            #expect(try next.object()["evicted"] as? [String] == [old])
            #expect(try first.object()["evicted"] == nil, "no key when nothing was evicted")
        }
    }

    @Test func tokensFileLinesMayCarryAFactLimit() throws {
        guard
            case .tokens(let namespaces, let limits) = try Authentication.tokens(
                parsing: "t1 alice\nt2 bob fact-limit=50\nt3 carol fact-limit=none\n", file: "f")
        else {
            Issue.record("expected tokens")
            return
        }
        #expect(namespaces == ["t1": "alice", "t2": "bob", "t3": "carol"])
        #expect(limits == ["t2": TokenFactLimit(50), "t3": TokenFactLimit(nil)])
        for bad in ["t1 alice fact-limit=-1", "t1 alice fact-limit=lots", "t1 alice 50", "t1 alice fact-limit=5 x"] {
            #expect(throws: ServerSetupError.self, "\(bad)") { try Authentication.tokens(parsing: bad, file: "f") }
        }
    }

    @Test func aQuotaErrorIs409WithItsCode() {
        let error = APIError.from(MnemoError.quotaExceeded(limit: 50))
        #expect(error.status == .conflict && error.code == "quota_exceeded")
    }
}
