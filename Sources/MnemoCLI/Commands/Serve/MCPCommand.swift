import ArgumentParser
import Mnemo
import MnemoMCP

struct MCPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the knowledge base to an AI assistant: a Model Context Protocol server on stdio.",
        discussion: """
            Tools: \(MnemoMCPServer.toolNames.joined(separator: ", ")); resource: \
            \(MnemoMCPServer.topicTreeURI) (the topic tree), which a host can subscribe to (it is told \
            when the memory changes). Everything acts on one namespace (--namespace). An MCP host \
            starts it; add to the host's configuration:

              {"mcpServers": {"mnemo": {"command": "mnemo",
                "args": ["mcp", "--db", "/path/to/memory.sqlite", "--namespace", "me"]}}}
            """
    )

    @Option(
        help: ArgumentHelp("Query vectors kept so repeated searches are not encoded again (0: none).", valueName: "n"))
    var queryCacheSize = 256

    @OptionGroup var quota: QuotaOptions

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let embedder = CachingEmbedder(try EmbedderLoader.load(), capacity: queryCacheSize)
        let kb = try quota.applied(to: await global.openKnowledgeBase(embedder: embedder))
        try await MnemoMCPServer(knowledgeBase: kb).runOnStandardIO()
    }
}
