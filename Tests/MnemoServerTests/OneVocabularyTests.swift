import Foundation
import HTTPTypes
import MCP
import Mnemo
import Testing

@testable import MnemoMCP
@testable import MnemoServer

/// The HTTP routes and the MCP tools parse filters through one vocabulary: the same wrong value
/// gets the same message and code, and an argument a tool does not declare is refused.
@Suite struct OneVocabularyTests {
    private func vocabularyMessage(_ field: FilterField, _ value: String) -> String {
        var parameters = SearchParameters()
        do {
            try parameters.set(field, to: value)
            return ""
        } catch {
            return error.message
        }
    }

    @Test func httpQueryAndBodyAndMCPSayTheSame() async throws {
        let expected = vocabularyMessage(.type, "opinion")
        let fixture = try await ServerFixture()
        let (query, body) = try await fixture.test { client in
            let query = try await client.send(.get, "/api/topics/search?q=swift&type=opinion")
            let body = try await client.send(.post, "/v1/facts/search", json: #"{"query": "swift", "type": "opinion"}"#)
            return (query, body)
        }
        for response in [query, body] {
            #expect(response.status == .badRequest)
            #expect(try response.errorCode() == "unknown_type")
            let error = try #require(try response.object()["error"] as? [String: Any])
            #expect(error["message"] as? String == expected)
        }
        let handler = MemoryToolHandler(knowledgeBase: fixture.knowledgeBase)
        let result = await handler.call("search_memory", arguments: ["query": "swift", "types": ["opinion"]])
        #expect(result.isError == true)
        #expect(result.content.first.map { if case .text(let text, _, _) = $0 { text } else { "" } } == expected)
    }

    @Test func aToolRefusesAnArgumentItDoesNotDeclare() async throws {
        let handler = MemoryToolHandler(knowledgeBase: try KnowledgeBase.inMemory())
        let result = await handler.call("search_memory", arguments: ["query": "swift", "type": "opinion"])
        #expect(result.isError == true)
        guard case .text(let text, _, _)? = result.content.first else {
            Issue.record("no text")
            return
        }
        #expect(text.hasPrefix(#"unknown parameter "type""#), "\(text)")
        #expect(text.contains("did you mean types?"), "\(text)")
    }

    @Test func aMethodAPathDoesNotServeIs405() async throws {
        let fixture = try await ServerFixture()
        let response = try await fixture.test { client in try await client.send(.put, "/api/topics/stats") }
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers[.allow] == "GET")
        #expect(try response.errorCode() == "method_not_allowed")
        let delete = try await fixture.test { client in try await client.send(.post, "/api/facts/1") }
        #expect(delete.headers[.allow] == "DELETE, PATCH")
    }

    @Test func aBodyFieldOfTheWrongTypeNamesIt() async throws {
        let fixture = try await ServerFixture()
        let response = try await fixture.test { client in
            try await client.send(.post, "/v1/facts/extract", json: #"{"user_id": 42, "extracted": []}"#)
        }
        #expect(response.status == .badRequest)
        #expect(try response.errorCode() == "wrong_field_type")
        #expect(response.text.contains(#"\"user_id\" must be a string"#), "\(response.text)")
    }
}
