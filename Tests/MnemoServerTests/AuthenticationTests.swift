import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import Mnemo
import Testing

@testable import MnemoServer

@Suite struct AuthenticationTests {
    static let routes: [(HTTPRequest.Method, String, String?)] = [
        (.get, "/v1/users/alice/facts", nil), (.patch, "/v1/facts/1", #"{"is_active": false}"#),
        (.post, "/v1/facts/search", #"{"query": "x"}"#), (.post, "/v1/facts/extract", #"{"extracted": []}"#),
        (.get, "/api/topics", nil), (.get, "/api/topics/1", nil), (.get, "/api/topics/lookup?path=Profession", nil),
        (.get, "/api/topics/search?q=x", nil), (.get, "/api/topics/stats", nil),
        (.post, "/api/topics/merge", #"{"sources": ["A"], "target": "B"}"#),
        (.patch, "/api/facts/1", #"{"importance": "low"}"#), (.delete, "/api/facts/1", nil),
        (.delete, "/api/facts/1?erase=true", nil), (.delete, "/v1/users/alice/memory", nil),
        (.delete, "/api/knowledge", nil),
    ]

    @Test func everyRouteNeedsAValidToken() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            for (method, uri, json) in Self.routes {
                let missing = try await client.send(method, uri, token: nil, json: json)
                #expect(missing.status == .unauthorized, "\(method) \(uri)")
                #expect(missing.headers[.wwwAuthenticate] == "Bearer")
                #expect(try missing.errorCode() == "unauthorized")
                let wrong = try await client.send(method, uri, token: "not-a-token", json: json)
                #expect(wrong.status == .unauthorized, "\(method) \(uri)")
            }
            let basic = try await client.execute(
                uri: "/api/topics", method: .get, headers: [.authorization: "Basic YWxpY2U6eA=="]
            ) { $0.status }
            #expect(basic == .unauthorized)
        }
    }

    @Test func tokensFileParsing() throws {
        guard
            case .tokens(let map, _) = try Authentication.tokens(
                parsing: "# comment\n\nt1 alice\n  t2\tbob  \n", file: "f")
        else {
            Issue.record("expected tokens")
            return
        }
        #expect(map == ["t1": "alice", "t2": "bob"])
        #expect(throws: ServerSetupError.self) { try Authentication.tokens(parsing: "t1 alice extra", file: "f") }
        #expect(throws: ServerSetupError.self) { try Authentication.tokens(parsing: "t1 alice\nt1 bob", file: "f") }
        #expect(throws: ServerSetupError.self) { try Authentication.tokens(parsing: "# nothing\n", file: "f") }
        #expect(throws: ServerSetupError.self) { try Authentication.tokens(fromFile: "/nonexistent/tokens") }
    }

    @Test func jwtSubjectIsTheUser() async throws {
        let secret = "a-test-secret-of-32-bytes-length"
        let fixture = try await ServerFixture(authentication: try await Authentication.jwt(secret: secret))
        let signer = JWTKeyCollection()
        await signer.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        let alice = try await signer.sign(NamespaceClaims(sub: "alice", exp: Date().addingTimeInterval(600)))
        let forever = try await signer.sign(NamespaceClaims(sub: "alice"))
        let expired = try await signer.sign(NamespaceClaims(sub: "alice", exp: Date().addingTimeInterval(-600)))
        let other = JWTKeyCollection()
        await other.add(hmac: HMACKey(from: "another-secret-of-32-bytes-len!!"), digestAlgorithm: .sha256)
        let forged = try await other.sign(NamespaceClaims(sub: "alice"))
        // An unsigned token ("alg": "none") must not pass.
        let unsigned = Self.base64URL(#"{"alg":"none","typ":"JWT"}"#) + "." + Self.base64URL(#"{"sub":"alice"}"#) + "."
        try await fixture.test { client in
            #expect(try await client.send(.get, "/v1/users/alice/facts", token: alice).status == .ok)
            #expect(
                try await client.send(.get, "/v1/users/alice/facts", token: forever).status == .unauthorized,
                "a token without exp needs --allow-tokens-without-exp")
            #expect(try await client.send(.get, "/v1/users/bob/facts", token: alice).status == .forbidden)
            #expect(try await client.send(.get, "/v1/users/alice/facts", token: expired).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/users/alice/facts", token: forged).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/users/alice/facts", token: unsigned).status == .unauthorized)
            let tree = try await client.send(.get, "/api/topics", token: alice).array()
            #expect(tree.count == 3)
        }
    }

    @Test func jwtTimeClaimsAreEnforced() async throws {
        let secret = "a-test-secret-of-32-bytes-length"
        let signer = JWTKeyCollection()
        await signer.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        let hour: TimeInterval = 3_600
        let early = try await signer.sign(
            NamespaceClaims(
                sub: "alice", exp: Date().addingTimeInterval(2 * hour),
                nbf: Date().addingTimeInterval(hour)))
        let issuedNow = try await signer.sign(
            NamespaceClaims(
                sub: "alice", exp: Date().addingTimeInterval(hour),
                nbf: Date().addingTimeInterval(5)))
        let forever = try await signer.sign(NamespaceClaims(sub: "alice"))
        let strict = try await Authentication.jwt(secret: secret)
        #expect(await strict.namespace(forBearer: early) == nil, "a token is not valid before its nbf")
        #expect(await strict.namespace(forBearer: issuedNow) == "alice", "a few seconds of clock skew are allowed")
        #expect(await strict.namespace(forBearer: forever) == nil, "exp is required by default")
        let lenient = try await Authentication.jwt(secret: secret, requiresExpiry: false)
        #expect(await lenient.namespace(forBearer: forever) == "alice")
        #expect(await lenient.namespace(forBearer: early) == nil)
        let fixture = try await ServerFixture(authentication: strict)
        try await fixture.test { client in
            let (tooSoon, inTime) = (
                try await client.send(.get, "/v1/users/alice/facts", token: early),
                try await client.send(.get, "/v1/users/alice/facts", token: issuedNow)
            )
            #expect(tooSoon.status == .unauthorized)
            #expect(inTime.status == .ok)
        }
    }

    @Test func aShortJWTSecretIsRefused() async throws {
        await #expect(throws: ServerSetupError.self) { try await Authentication.jwt(secret: "short") }
    }

    @Test func noAuthenticationIsRefusedOffLoopback() async throws {
        let kb = try KnowledgeBase.inMemory()
        for host in ["0.0.0.0", "192.168.1.10", "example.com", "::"] {
            #expect(throws: ServerSetupError.self) {
                try MnemoHTTPServer(
                    knowledgeBase: kb, configuration: ServerConfiguration(host: host), authentication: .none)
            }
        }
        for host in ["127.0.0.1", "localhost", "::1"] {
            _ = try MnemoHTTPServer(
                knowledgeBase: kb, configuration: ServerConfiguration(host: host), authentication: .none)
        }
        let tokens = try Authentication.tokens(parsing: "t u", file: "f")
        _ = try MnemoHTTPServer(
            knowledgeBase: kb, configuration: ServerConfiguration(host: "0.0.0.0"), authentication: tokens)
    }

    @Test func withoutAuthenticationThePathOrBodyNamesTheUser() async throws {
        let fixture = try await ServerFixture(authentication: Authentication.none)
        try await fixture.test { client in
            let bobs = try await client.send(.get, "/v1/users/bob/facts", token: nil).object()
            #expect(bobs["count"] as? Int == 2)
            let search = try await client.send(
                .post, "/v1/facts/search", token: nil, json: #"{"query": "cello", "user_id": "bob", "mode": "text"}"#
            ).object()
            #expect(search["count"] as? Int == 1)
            // MindChat names no user: the default namespace, empty here.
            #expect(try await client.send(.get, "/api/topics", token: nil).array().isEmpty)
        }
    }

    private static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
