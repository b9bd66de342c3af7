import Foundation
import MnemoTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The REPL on a pseudo-terminal, typed into as a person would: line editing keys, the
/// history across sessions, Ctrl-R, Tab completion, and the plain fallback without libedit.
///
/// Line editing needs libedit at run time. Without it these tests are skipped, except under
/// `CI`, where `.ci/run` installs it and a skip would hide a broken setup.
@Suite("REPL on a terminal", .serialized, .enabled(if: LibEditProbe.isAvailable || ModelFixture.isCI))
struct ReplTerminalTests {

    /// A fresh history file for one test.
    static func historyFile() throws -> String {
        URL(fileURLWithPath: try TestKnowledgeBase.temporaryPath()).deletingLastPathComponent().appendingPathComponent(
            "history"
        ).path
    }

    /// `mnemo repl` on a terminal, in text mode (no embedder needed) with JSON output, so that
    /// each search echoes the text it searched for.
    static func start(
        history: String, arguments: [String] = ["--mode", "text", "--json"],
        environment: [String: String] = [:]
    ) throws -> PseudoTerminal {
        let terminal = try PseudoTerminal(
            ["repl", "--db", ReplFixture.database] + arguments,
            environment: ["MNEMO_HISTORY": history].merging(environment) { $1 })
        try terminal.waitFor("mnemo> ")
        return terminal
    }

    /// Waits for the JSON of a search for `text`, then for the next prompt.
    static func expectSearch(_ terminal: PseudoTerminal, for text: String) throws {
        try terminal.waitFor(pattern: #""query" ?: ?"\#(NSRegularExpression.escapedPattern(for: text))""#)
        try terminal.waitFor("mnemo> ")
    }

    @Test func editingKeys() throws {
        #expect(LibEditProbe.isAvailable, "libedit is not installed (apt-get install libedit2)")
        let terminal = try Self.start(history: try Self.historyFile())
        // Ctrl-A goes to the start of the line, Ctrl-E to its end.
        terminal.send("limbing" + PseudoTerminal.ctrlA + "c" + PseudoTerminal.ctrlE + " wall\r")
        try Self.expectSearch(terminal, for: "climbing wall")
        // The left arrow moves back into the word.
        terminal.send("clmbing" + String(repeating: PseudoTerminal.left, count: 5) + "i\r")
        try Self.expectSearch(terminal, for: "climbing")
        // Ctrl-W deletes the word before the cursor, Ctrl-U the line.
        terminal.send("porto marthon" + PseudoTerminal.ctrlW + "marathon\r")
        try Self.expectSearch(terminal, for: "porto marathon")
        terminal.send("never mind" + PseudoTerminal.ctrlU + "swiftui\r")
        try Self.expectSearch(terminal, for: "swiftui")
        // Accented letters are one character each for the editor.
        terminal.send("Lisboa café" + PseudoTerminal.left + "\u{7F}\r")
        try Self.expectSearch(terminal, for: "Lisboa caé")
        // The up arrow walks back through the lines of this session.
        terminal.send(PseudoTerminal.up + PseudoTerminal.up + PseudoTerminal.up + "\r")
        try Self.expectSearch(terminal, for: "porto marathon")
        // Ctrl-R searches the history backwards for what is typed.
        terminal.send(PseudoTerminal.ctrlR + "wall")
        try terminal.waitFor("wall")
        terminal.send("\r")
        try Self.expectSearch(terminal, for: "climbing wall")
        terminal.send(PseudoTerminal.ctrlD)
        #expect(try terminal.waitForExit() == 0)
    }

    @Test func ctrlCAbandonsTheLineAndKeepsTheSession() throws {
        #expect(LibEditProbe.isAvailable, "libedit is not installed (apt-get install libedit2)")
        let terminal = try Self.start(history: try Self.historyFile())
        terminal.send("half typed")
        try terminal.waitFor("half typed")
        terminal.interrupt()
        try terminal.waitFor("^C\nmnemo> ")
        terminal.send("climbing\r")
        try Self.expectSearch(terminal, for: "climbing")
        terminal.send(PseudoTerminal.ctrlD)
        #expect(try terminal.waitForExit() == 0)
    }

    @Test func historyIsKeptAcrossSessions() throws {
        #expect(LibEditProbe.isAvailable, "libedit is not installed (apt-get install libedit2)")
        let history = try Self.historyFile()
        let first = try Self.start(history: history)
        first.send("marathon type:goal\r")
        try Self.expectSearch(first, for: "marathon")
        first.send(":quit\r")
        #expect(try first.waitForExit() == 0)
        let saved = try String(contentsOfFile: history, encoding: .utf8)
        #expect(saved.contains("marathon"), "\(saved)")

        let second = try Self.start(history: history)
        // Up once is ":quit", twice the search of the first session.
        second.send(PseudoTerminal.up + PseudoTerminal.up + "\r")
        try Self.expectSearch(second, for: "marathon")
        second.send(PseudoTerminal.ctrlD)
        #expect(try second.waitForExit() == 0)
    }

    @Test func tabCompletesCommandsFiltersAndTopicPaths() throws {
        #expect(LibEditProbe.isAvailable, "libedit is not installed (apt-get install libedit2)")
        let terminal = try Self.start(history: try Self.historyFile(), arguments: ["--mode", "text"])
        terminal.send(":sta" + PseudoTerminal.tab + "\r")
        try terminal.waitFor("339 facts (339 active")
        try terminal.waitFor("mnemo> ")
        terminal.send(":topic Transp" + PseudoTerminal.tab + "\r")
        try terminal.waitFor(pattern: #"Transportation\n *1\. "#)
        try terminal.waitFor("mnemo> ")
        terminal.send("marathon ty" + PseudoTerminal.tab + "go" + PseudoTerminal.tab + "\r")
        try terminal.waitFor(pattern: #"\d results? in [0-9.]+ ms \(text; type goal\)"#)
        try terminal.waitFor("mnemo> ")
        terminal.send(#"run topic:"Health & Fitness/Ru"# + PseudoTerminal.tab + "\r")
        try terminal.waitFor(pattern: #"\d results? in [0-9.]+ ms \(text; topic Health & Fitness/Running\)"#)
        try terminal.waitFor("mnemo> ")
        // Two topics start so: Tab completes what they share, a second Tab lists them.
        terminal.send(":topic Health and F" + PseudoTerminal.tab + PseudoTerminal.tab)
        try terminal.waitFor("Fitness/Running")
        terminal.send("\r")
        try terminal.waitFor("▸ Running")
        try terminal.waitFor("mnemo> ")
        terminal.send(PseudoTerminal.ctrlD)
        #expect(try terminal.waitForExit() == 0)
    }
}

/// Whether libedit can be loaded here, by the names `mnemo` tries.
enum LibEditProbe {
    static let isAvailable = ["libedit.3.dylib", "libedit.so.2", "libedit.so.0"].contains { name in
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { return false }
        dlclose(handle)
        return true
    }
}

/// The REPL on a terminal where libedit is not loaded: plain lines, with a prompt.
@Suite("REPL on a terminal without libedit")
struct ReplPlainTerminalTests {
    @Test func withoutLibeditTheTerminalGetsPlainLines() throws {
        // A library that is not there stands for a machine without libedit.
        let terminal = try PseudoTerminal(
            ["repl", "--db", ReplFixture.database, "--mode", "text"],
            environment: [
                "MNEMO_LIBEDIT": "/nonexistent/libedit.so.2",
                "MNEMO_HISTORY": try ReplTerminalTests.historyFile(),
            ],
            lineEditing: false)
        try terminal.waitFor("No line editing: libedit was not found")
        try terminal.waitFor("mnemo> ")
        terminal.send("climbing\n")
        try terminal.waitFor(pattern: #"5 results in [0-9.]+ ms \(text\)"#)
        try terminal.waitFor("mnemo> ")
        terminal.send(PseudoTerminal.ctrlD)
        #expect(try terminal.waitForExit() == 0)
    }
}
