import Foundation
import Hummingbird
import HummingbirdTesting
import Mnemo
import Testing

@testable import MnemoServer

@Suite struct ServerErrorTests {
    @Test func malformedJSONIsABadRequest() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            for body in ["{", "", "nul", #"{"query": "x""#, "\"just a string\"", "[1, 2]"] {
                let response = try await client.send(.post, "/v1/facts/search", json: body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                let code = try response.errorCode()
                #expect(code == "invalid_json" || code == "not_an_object", "\(body): \(response.text)")
            }
        }
    }

    @Test func aBodyOverTheLimitIs413() async throws {
        let fixture = try await ServerFixture(maximumBodySize: 1_000)
        try await fixture.test { client in
            let query = String(repeating: "a", count: 2_000)
            let response = try await client.send(.post, "/v1/facts/search", json: "{\"query\": \"\(query)\"}")
            #expect(response.status == .contentTooLarge)
            #expect(try response.errorCode() == "body_too_large")
        }
    }

    @Test func aBodyThatIsNotJSONIs415() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let response = try await client.send(
                .post, "/v1/facts/search", json: "query=x", contentType: "application/x-www-form-urlencoded")
            #expect(response.status == .unsupportedMediaType)
            #expect(try response.errorCode() == "unsupported_media_type")
            let charset = try await client.send(
                .post, "/v1/facts/search", json: #"{"query": "x"}"#, contentType: "application/json; charset=utf-8")
            #expect(charset.status == .ok)
        }
    }

    @Test func unknownRoutesAndMethodsAreJSONErrors() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let missing = try await client.send(.get, "/v2/nothing")
            #expect(missing.status == .notFound)
            #expect(try missing.errorCode() == "not_found")
            let wrongMethod = try await client.send(.put, "/api/topics")
            #expect(wrongMethod.status.code >= 400 && wrongMethod.status.code < 500)
            #expect(try wrongMethod.errorCode() != nil)
        }
    }

    @Test func garbageNeverGetsA500() async throws {
        let fixture = try await ServerFixture()
        let fact = try #require(fixture.alice["Prefers SwiftUI over UIKit"])
        let bodies = [
            "{}", "[]", "null", "0", "{\"a\": {\"b\": [1, {\"c\": null}]}}", "{\"query\": null}", "{\"query\": 5}",
            "{\"extracted\": null}", "{\"extracted\": [null, 1, \"x\", []]}", "{\"sources\": \"x\", \"target\": true}",
            "{\"content\": 12, \"type\": [], \"importance\": {}, \"confidence\": \"high\", \"topic\": 3}",
            "{\"query\": \"\\u0000\\ud83d\", \"limit\": 1e300, \"offset\": -5}", "\u{FEFF}{}", "\u{00}",
        ]
        let routes: [(HTTPRequest.Method, String)] = [
            (.post, "/v1/facts/search"), (.post, "/v1/facts/extract"), (.patch, "/v1/facts/\(fact.id)"),
            (.post, "/api/topics/merge"), (.patch, "/api/facts/\(fact.id)"),
        ]
        try await fixture.test { client in
            for (method, route) in routes {
                for body in bodies {
                    let response = try await client.send(method, route, json: body)
                    #expect(
                        response.status.code < 500, "\(method) \(route) \(body): \(response.status) \(response.text)")
                    if response.status.code >= 400 { #expect(try response.errorCode() != nil) }
                }
            }
            for uri in [
                "/api/topics/search?q=%22%22%22&limit=-1", "/api/topics/lookup?path=%2F%2F%2F",
                "/api/topics/search?q=AND%20OR%20NOT%20(*",
                "/v1/users/%20/facts", "/api/topics/-1", "/api/topics/99999999999999999999999",
            ] {
                let response = try await client.send(.get, uri)
                #expect(response.status.code < 500, "\(uri): \(response.status) \(response.text)")
            }
        }
    }

    @Test func healthAndOpenAPINeedNoToken() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let health = try await client.send(.get, "/healthz", token: nil)
            #expect(health.status == .ok)
            #expect(try health.object()["status"] as? String == "ok")
            let document = try await client.send(.get, "/openapi.json", token: nil)
            #expect(document.status == .ok)
            #expect(try document.object()["openapi"] as? String == "3.1.0")
        }
    }
}
