import MnemoTestSupport
import Testing

/// `mnemo mcp --help` names every tool the server offers (it once drifted to 7 of 9).
@Suite struct MCPHelpTests {
    @Test func helpListsEveryToolAndTheSubscribableResource() throws {
        let help = try CLIRunner.run(["mcp", "--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
        for tool in [
            "memory_context", "search_memory", "remember_fact", "update_fact", "forget_fact", "forget", "show_topic",
            "list_topics", "memory_stats",
        ] {
            #expect(help.contains(tool), "\(tool)")
        }
        #expect(help.contains("mnemo://topics"))
        #expect(help.contains("subscribe"))
    }
}
