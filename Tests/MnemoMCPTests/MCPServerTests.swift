import Foundation
import MCP
import Mnemo
import Testing

@testable import MnemoMCP

/// The MCP server driven by the Swift SDK's own client over an in-memory transport.
@Suite struct MCPServerTests {
    private struct Session {
        let client: Client
        let server: Server
        let knowledgeBase: KnowledgeBase

        /// Calls a tool and returns its text and whether it is an error.
        func call(_ name: String, _ arguments: [String: Value] = [:]) async throws -> (text: String, isError: Bool) {
            let (content, isError) = try await client.callTool(name: name, arguments: arguments)
            let text = content.compactMap { item -> String? in
                if case .text(let text, _, _) = item { return text }
                return nil
            }.joined()
            return (text, isError ?? false)
        }

        /// Calls a tool that must succeed and parses its JSON answer.
        func json(_ name: String, _ arguments: [String: Value] = [:]) async throws -> Any {
            let (text, isError) = try await call(name, arguments)
            #expect(!isError, "\(name): \(text)")
            return try JSONSerialization.jsonObject(with: Data(text.utf8))
        }
    }

    private func session() async throws -> Session {
        let root = try KnowledgeBase.inMemory(embedder: HashingEmbedder())
        let kb = try root.inNamespace("me")
        try await kb.addFact(
            NewFact(
                content: "Prefers SwiftUI over UIKit", topicPath: "Technology/iOS Development", type: .preference,
                importance: .high))
        try await kb.addFact(
            NewFact(content: "Runs a marathon every spring", topicPath: "Health & Fitness", type: .experience))
        try await root.inNamespace("someone-else").addFact(NewFact(content: "Plays the cello", topicPath: "Music"))
        let server = await MnemoMCPServer(knowledgeBase: kb).makeServer()
        let (clientTransport, serverTransport) = await InMemoryTransport.createConnectedPair()
        try await server.start(transport: serverTransport)
        let client = Client(name: "mnemo-tests", version: "1.0")
        let initialized = try await client.connect(transport: clientTransport)
        #expect(initialized.capabilities.tools != nil)
        #expect(initialized.capabilities.resources != nil)
        return Session(client: client, server: server, knowledgeBase: kb)
    }

    @Test func listsEveryToolWithASchemaAndADescription() async throws {
        let session = try await session()
        let (tools, _) = try await session.client.listTools()
        // The list is the server's own (`MemoryTools.all`): every tool it declares is listed,
        // described, and answered by the handler rather than refused as unknown.
        #expect(tools.map(\.name) == MemoryTools.all.map(\.name))
        #expect(tools.count >= 9)
        for tool in tools {
            #expect((tool.description ?? "").count > 40, "\(tool.name)")
            #expect(tool.inputSchema.objectValue?["type"] == "object", "\(tool.name)")
            let (text, _) = try await session.call(tool.name)
            #expect(!text.contains("unknown tool"), "\(tool.name): \(text)")
        }
        await session.client.disconnect()
        await session.server.stop()
    }

    @Test func searchesRemembersUpdatesAndForgets() async throws {
        let session = try await session()
        let search = try #require(
            try await session.json("search_memory", ["query": "swiftui", "limit": 5]) as? [String: Any])
        let hits = try #require(search["results"] as? [[String: Any]])
        #expect(hits.first?["content"] as? String == "Prefers SwiftUI over UIKit")
        #expect(!hits.contains { ($0["content"] as? String)?.contains("cello") == true })

        let filtered = try #require(
            try await session.json(
                "search_memory", ["query": "swiftui marathon", "types": ["experience"], "mode": "semantic"])
                as? [String: Any])
        #expect(
            (filtered["results"] as? [[String: Any]])?.map { $0["content"] as? String } == [
                "Runs a marathon every spring"
            ])

        let added = try #require(
            try await session.json(
                "remember_fact",
                [
                    "content": "Has a dog named Miso", "topic": "Pets", "type": "fact", "importance": "medium",
                    "source": "chat-3",
                ]) as? [String: Any])
        #expect(added["outcome"] as? String == "added")
        let fact = try #require(added["fact"] as? [String: Any])
        let id = try #require(fact["id"] as? Int)
        #expect(fact["sources"] as? [String] == ["chat-3"])

        // Through ingest: the same fact again is recognised, not stored twice.
        let again = try #require(
            try await session.json("remember_fact", ["content": "has a dog named Miso."]) as? [String: Any])
        #expect(again["outcome"] as? String == "unchanged")
        #expect((again["fact"] as? [String: Any])?["id"] as? Int == id)

        let updated = try #require(
            try await session.json("update_fact", ["id": .int(id), "importance": "high"]) as? [String: Any])
        #expect(updated["importance"] as? String == "high")
        let (notGoal, refused) = try await session.call("update_fact", ["id": .int(id), "status": "completed"])
        #expect(refused && notGoal.contains("only a goal has a status"), "\(notGoal)")
        let goal = try #require(
            try await session.json(
                "remember_fact", ["content": "Wants to adopt a cat", "topic": "Pets", "type": "goal"])
                as? [String: Any])
        let goalID = try #require((goal["fact"] as? [String: Any])?["id"] as? Int)
        let moved = try #require(
            try await session.json("update_fact", ["id": .int(goalID), "status": "paused", "progress": 0.25])
                as? [String: Any])
        #expect(moved["status"] as? String == "paused" && moved["progress"] as? Double == 0.25)
        let paused = try #require(
            try await session.json("search_memory", ["query": "cat", "mode": "text", "status": ["paused"]])
                as? [String: Any])
        #expect((paused["results"] as? [[String: Any]])?.map { $0["id"] as? Int } == [goalID])

        let forgotten = try #require(try await session.json("forget_fact", ["id": .int(id)]) as? [String: Any])
        #expect(forgotten["is_active"] as? Bool == false)
        let after = try #require(
            try await session.json("search_memory", ["query": "dog Miso", "mode": "text"]) as? [String: Any])
        #expect((after["results"] as? [Any])?.isEmpty == true)
        #expect(try await session.knowledgeBase.fact(id: Int64(id))?.isActive == false)
        await session.client.disconnect()
        await session.server.stop()
    }

    @Test func forgetErasesByIDOrByQueryAfterAConfirmation() async throws {
        let session = try await session()
        let kb = session.knowledgeBase
        let marathon = try #require(try await kb.search("marathon", mode: .text).first?.fact.id)
        let preview = try #require(
            try await session.json("forget", ["query": "marathon spring", "limit": 1]) as? [String: Any])
        #expect((preview["would_erase"] as? [[String: Any]])?.map { $0["id"] as? Int } == [Int(marathon)])
        #expect(try await kb.fact(id: marathon) != nil, "a query without confirm erases nothing")

        let receipt = try #require(
            try await session.json("forget", ["query": "marathon spring", "limit": 1, "confirm": true])
                as? [String: Any])
        #expect(receipt["fact_ids"] as? [Int] == [Int(marathon)])
        #expect(try await kb.fact(id: marathon) == nil)
        #expect(try await kb.history(ofFact: marathon).isEmpty)

        let swift = try #require(try await kb.search("swiftui", mode: .text).first?.fact.id)
        let byID = try #require(try await session.json("forget", ["ids": [.int(Int(swift))]]) as? [String: Any])
        #expect(byID["facts"] as? Int == 1)
        // Another user's fact does not exist here.
        let cello = try #require(try await kb.inNamespace("someone-else").search("cello", mode: .text).first?.fact.id)
        let foreign = try await session.call("forget", ["ids": [.int(Int(cello))]])
        #expect(foreign.isError)
        #expect(try await kb.inNamespace("someone-else").fact(id: cello) != nil)
        #expect(try await session.call("forget", [:]).isError)
        await session.client.disconnect()
        await session.server.stop()
    }

    @Test func showsTopicsAndStatsAndTheTreeResource() async throws {
        let session = try await session()
        let topic = try #require(try await session.json("show_topic", ["path": "technology"]) as? [String: Any])
        #expect(topic["path"] as? String == "Technology")
        #expect(topic["subtopics"] as? [String] == ["Technology/iOS Development"])
        #expect((topic["facts"] as? [[String: Any]])?.count == 1)

        let tree = try #require(try await session.json("list_topics") as? [[String: Any]])
        #expect(tree.compactMap { $0["path"] as? String }.sorted() == ["Health & Fitness", "Technology"])

        let stats = try #require(try await session.json("memory_stats") as? [String: Any])
        #expect(stats["facts"] as? Int == 2)

        let (resources, _) = try await session.client.listResources()
        #expect(resources.map(\.uri) == ["mnemo://topics"])
        let contents = try await session.client.readResource(uri: "mnemo://topics")
        let text = try #require(contents.first?.text)
        #expect(text.contains("Technology/iOS Development"))
        #expect(!text.contains("Music"))
        await session.client.disconnect()
        await session.server.stop()
    }

    @Test func mistakesComeBackAsToolErrorsTheAssistantCanRead() async throws {
        let session = try await session()
        let cases: [(String, [String: Value], String)] = [
            ("search_memory", [:], "\"query\" is required"),
            ("search_memory", ["query": "x", "mode": "fuzzy"], "unknown mode"),
            ("search_memory", ["query": "x", "limit": 500], "from 1 to 50"),
            ("search_memory", ["query": "x", "type": "opinion"], "unknown parameter \"type\""),
            ("remember_fact", ["content": "x", "type": "opinion"], "unknown type"),
            ("remember_fact", ["content": "x", "confidence": 3], "confidence_out_of_range"),
            ("remember_fact", ["content": "x", "topic": "a//b"], "bad_topic"),
            ("update_fact", ["id": 999_999, "importance": "high"], "no fact with id 999999"),
            ("update_fact", ["id": 1], "at least one"),
            ("update_fact", ["id": 1, "status": "done"], "expected active, paused, completed or abandoned"),
            ("update_fact", ["id": 1, "progress": 2], "between 0 and 1"),
            ("forget_fact", [:], "\"id\" is required"),
            ("show_topic", ["path": "Nowhere"], "no topic"),
            ("no_such_tool", [:], "unknown tool"),
        ]
        for (tool, arguments, message) in cases {
            let (text, isError) = try await session.call(tool, arguments)
            #expect(isError, "\(tool) \(arguments)")
            #expect(text.contains(message), "\(tool): \(text)")
        }
        await session.client.disconnect()
        await session.server.stop()
    }

    @Test func theContextToolAndPromptGiveTheMemoryForAMessage() async throws {
        let session = try await session()
        try await session.knowledgeBase.addFact(
            NewFact(content: "Allergic to peanuts", topicPath: "Health", importance: .high))
        let answer = try #require(
            try await session.json("memory_context", ["message": "what should I cook tonight?", "budget": 200])
                as? [String: Any])
        #expect((answer["context"] as? String)?.contains("- Allergic to peanuts\n") == true)
        #expect((answer["tokens"] as? Int ?? 999) <= 200)
        let items = try #require(answer["items"] as? [[String: Any]])
        // The one fact of this memory: a hit for the message, or a standing fact when it bears on it.
        #expect(["always", "relevant"].contains(items.first?["why"] as? String))
        let (_, isError) = try await session.call("memory_context", ["message": "x", "since": "yesterday-ish"])
        #expect(isError)

        let (prompts, _) = try await session.client.listPrompts()
        #expect(prompts.map(\.name) == ["memory_context"])
        let prompt = try await session.client.getPrompt(
            name: "memory_context", arguments: ["message": "what should I cook tonight?"])
        guard case .text(let text)? = prompt.messages.first?.content else {
            Issue.record("no text message")
            return
        }
        #expect(text.contains("Allergic to peanuts"))
    }
}
