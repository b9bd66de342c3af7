import Foundation
import MCP
import Mnemo

/// The Model Context Protocol server of `mnemo mcp`: tools to search, add, correct and forget
/// memories of one namespace, and the topic tree as a resource.
package struct MnemoMCPServer: Sendable {
    /// The knowledge base, scoped to the namespace the assistant works on.
    package let knowledgeBase: KnowledgeBase
    package static let topicTreeURI = "mnemo://topics"
    /// The names of the tools it offers, for help texts.
    package static var toolNames: [String] { MemoryTools.all.map(\.name) }

    package init(knowledgeBase: KnowledgeBase) {
        self.knowledgeBase = knowledgeBase
    }

    /// A server with every handler registered, not yet started.
    package func makeServer(version: String = MnemoVersion.current) async -> Server {
        let server = Server(
            name: "mnemo", version: version, title: "Mnemo memory",
            instructions: """
                Long-term memory about the user (namespace "\(knowledgeBase.namespace)"). Call memory_context with \
                the user's message at the start of each turn, and search it before \
                answering questions that depend on the user; remember durable facts they tell you; correct or \
                forget facts when they say something changed.
                """,
            capabilities: .init(
                prompts: .init(listChanged: false), resources: .init(subscribe: true, listChanged: false),
                tools: .init(listChanged: false)))
        let tools = MemoryToolHandler(knowledgeBase: knowledgeBase)
        await server.withMethodHandler(ListTools.self) { _ in .init(tools: MemoryTools.all) }
        await server.withMethodHandler(CallTool.self) { params in
            await tools.call(params.name, arguments: params.arguments)
        }
        await server.withMethodHandler(ListPrompts.self) { _ in .init(prompts: MemoryPrompts.all) }
        await server.withMethodHandler(GetPrompt.self) { params in
            try await tools.prompt(params.name, arguments: params.arguments)
        }
        await server.withMethodHandler(ListResources.self) { _ in
            .init(
                resources: [
                    Resource(
                        name: "topics", uri: Self.topicTreeURI, title: "Topic tree",
                        description: "Every topic of the memory with its fact counts, as JSON.",
                        mimeType: "application/json")
                ],
                nextCursor: nil)
        }
        await server.withMethodHandler(ReadResource.self) { params in
            guard params.uri == Self.topicTreeURI else {
                throw MCPError.invalidParams("unknown resource \(params.uri); the memory offers \(Self.topicTreeURI)")
            }
            let tree = try await tools.topicTreeJSON()
            return .init(contents: [.text(tree, uri: Self.topicTreeURI, mimeType: "application/json")])
        }
        let subscriptions = ResourceSubscriptions(knowledgeBase: knowledgeBase)
        await server.withMethodHandler(ResourceSubscribe.self) { [weak server] params in
            if let server { try subscriptions.subscribe(params.uri, notifying: server) }
            return Empty()
        }
        await server.withMethodHandler(ResourceUnsubscribe.self) { params in
            subscriptions.unsubscribe(params.uri)
            return Empty()
        }
        return server
    }

    /// Serves on standard input and output until the client disconnects.
    package func runOnStandardIO() async throws {
        let server = await makeServer()
        try await server.start(transport: StdioTransport())
        await server.waitUntilCompleted()
    }
}
