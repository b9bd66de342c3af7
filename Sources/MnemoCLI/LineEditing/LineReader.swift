import Foundation

/// Where the REPL's lines come from: an editor with history on a terminal, plain lines otherwise.
protocol LineReader: AnyObject {
    /// The next line, without its newline; `nil` at the end of input (Ctrl-D, or the pipe closed).
    func readLine(prompt: String) -> String?

    /// Keeps a line the user ran in the history, so the up arrow and Ctrl-R find it again.
    func remember(_ line: String)
}

/// Reads lines as they come, for a pipe or a file, or for a terminal without libedit.
final class PlainLineReader: LineReader {
    /// Whether to print the prompt: on a terminal, not into a script's output.
    let showsPrompt: Bool

    init(showsPrompt: Bool) {
        self.showsPrompt = showsPrompt
    }

    func readLine(prompt: String) -> String? {
        if showsPrompt {
            print(prompt, terminator: "")
            fflush(nil)
        }
        return Swift.readLine()
    }

    func remember(_ line: String) {}
}
