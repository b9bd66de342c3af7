import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Mnemo
import Testing

@testable import MnemoServer

/// A server over an in-memory knowledge base holding two users' facts, with tokens auth:
/// `alice-token` is alice, `bob-token` is bob.
struct ServerFixture {
    let knowledgeBase: KnowledgeBase
    let server: MnemoHTTPServer
    /// Alice's facts by content.
    let alice: [String: Fact]
    let bob: [String: Fact]

    static let aliceToken = "alice-token"
    static let bobToken = "bob-token"

    init(
        authentication: Authentication? = nil, maximumBodySize: Int = 64 * 1024, page: PageMode = .on,
        eventStreamStallLimit: Duration = .seconds(30)
    ) async throws {
        knowledgeBase = try KnowledgeBase.inMemory(embedder: HashingEmbedder())
        let auth =
            try authentication
            ?? Authentication.tokens(
                parsing: """
                    # token namespace
                    alice-token alice
                    bob-token bob
                    """, file: "tokens")
        server = try MnemoHTTPServer(
            knowledgeBase: knowledgeBase,
            configuration: ServerConfiguration(
                host: "127.0.0.1", port: 0, maximumBodySize: maximumBodySize, page: page,
                eventStreamStallLimit: eventStreamStallLimit),
            authentication: auth)
        alice = try await Self.seed(
            knowledgeBase.inNamespace("alice"),
            [
                NewFact(
                    content: "Prefers SwiftUI over UIKit", topicPath: "Technology/iOS Development", type: .preference,
                    importance: .high, confidence: 0.95),
                NewFact(content: "Works as a software engineer in Porto", topicPath: "Profession", importance: .high),
                NewFact(
                    content: "Runs a marathon every spring", topicPath: "Health & Fitness/Running", type: .experience,
                    importance: .medium),
                NewFact(
                    content: "Wants to learn Rust this year", topicPath: "Technology", type: .goal, importance: .low,
                    confidence: 0.6),
            ])
        bob = try await Self.seed(
            knowledgeBase.inNamespace("bob"),
            [
                NewFact(content: "Plays the cello in an orchestra", topicPath: "Music", type: .experience),
                NewFact(content: "Prefers Kotlin to Java", topicPath: "Technology", type: .preference),
            ])
    }

    private static func seed(_ kb: KnowledgeBase, _ facts: [NewFact]) async throws -> [String: Fact] {
        var stored: [String: Fact] = [:]
        for fact in facts { stored[fact.content] = try await kb.addFact(fact).fact }
        return stored
    }

    /// Runs `body` against the router in process.
    func test<Value>(
        _ setup: TestingSetup = .router, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        try await server.application().test(setup, body)
    }
}

extension TestClientProtocol {
    /// Sends a request as `token`'s user (no Authorization header when `nil`), with a JSON body.
    @discardableResult
    func send(
        _ method: HTTPRequest.Method, _ uri: String, token: String? = ServerFixture.aliceToken,
        json: String? = nil, contentType: String? = "application/json"
    ) async throws -> ServerResponse {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if json != nil, let contentType { headers[.contentType] = contentType }
        return try await execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
        { response in
            ServerResponse(
                status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
        }
    }
}

/// What a test reads of a response.
struct ServerResponse: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: Data

    /// The body as a JSON object.
    func object() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any], "not a JSON object: \(text)")
    }

    func array() throws -> [Any] {
        try #require(try JSONSerialization.jsonObject(with: body) as? [Any], "not a JSON array: \(text)")
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The error code of a JSON error body.
    func errorCode() throws -> String? {
        (try object()["error"] as? [String: Any])?["code"] as? String
    }
}
