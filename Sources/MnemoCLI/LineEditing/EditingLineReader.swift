import Foundation

/// Reads lines through libedit: arrow keys and Emacs keys (Ctrl-A/E/W/U/K…), Ctrl-R to search
/// the history backwards, Tab completion, and a history file kept across sessions.
///
/// libedit reads `~/.editrc` (lines may start with `mnemo:`), so its key bindings can be changed
/// there as for any libedit program.
final class EditingLineReader: LineReader {
    private let libedit: LibEdit
    private let historyPath: String?
    private let complete: (String) -> LineCompletion?
    private var lastRemembered: String?

    /// Sets libedit up; the prompt and the edited line go to `output` (standard output, or
    /// standard error when output is redirected).
    init(libedit: LibEdit, historyFile: URL?, output: UnsafeMutablePointer<FILE>?, complete: @escaping (String) -> LineCompletion?) {
        self.libedit = libedit
        self.complete = complete
        Self.chooseUTF8Locale()
        libedit.readlineName.pointee = UnsafePointer(strdup("mnemo"))
        if let output { libedit.outputStream.pointee = output }
        _ = libedit.initialize()
        // libedit binds Ctrl-W to "kill region"; readline and shells delete the previous word.
        _ = libedit.parseAndBind("bind ^W ed-delete-prev-word")
        libedit.attemptedCompletionFunction.pointee = completionEntry
        libedit.stifleHistory(CInt(HistoryFile.capacity))
        if let historyFile {
            try? FileManager.default.createDirectory(at: historyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            historyPath = historyFile.path
            _ = libedit.readHistory(historyFile.path)
        } else {
            historyPath = nil
        }
    }

    func readLine(prompt: String) -> String? {
        activeReader = self
        defer { activeReader = nil }
        guard let line = libedit.readline(prompt) else { return nil }
        defer { free(line) }
        return String(cString: line)
    }

    /// Adds the line to the history and saves the history at once, so a session that ends
    /// abruptly loses nothing. A line that repeats the one before it is kept once.
    func remember(_ line: String) {
        let line = line.trimmingCharacters(in: .whitespaces)
        guard !line.isEmpty, line != lastRemembered else { return }
        lastRemembered = line
        _ = libedit.addHistory(line)
        guard let historyPath else { return }
        _ = libedit.writeHistory(historyPath)
        _ = libedit.truncateHistoryFile(historyPath, CInt(HistoryFile.capacity))
    }

    /// Called by libedit on Tab: the completions of `word`, the end of the line before the cursor.
    fileprivate func completions(of word: String) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        libedit.attemptedCompletionOver.pointee = 1  // never fall back to file names
        guard let buffer = libedit.lineBuffer.pointee else { return nil }
        let cursor = max(0, Int(libedit.point.pointee))
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: strlen(buffer))
        let linePrefix = String(decoding: bytes.prefix(cursor), as: UTF8.self)
        guard let completion = complete(linePrefix) else { return nil }
        let matches = completion.matches(replacingWord: word, linePrefix: linePrefix)
        guard !matches.isEmpty else { return nil }
        libedit.completionAppendCharacter.pointee = completion.isFinal ? 0x20 : 0
        // readline's convention: the text to insert, then the candidates, then NULL; one
        // candidate alone is the text to insert.
        let entries = matches.count == 1 ? matches : [LineCompletion.commonPrefix(matches)] + matches
        let array = malloc(MemoryLayout<UnsafeMutablePointer<CChar>?>.stride * (entries.count + 1))!
            .bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: entries.count + 1)
        for (index, entry) in entries.enumerated() { array[index] = strdup(entry) }
        array[entries.count] = nil
        return array
    }

    /// libedit decodes multibyte input by the C locale, which a Swift program leaves at "C"
    /// (ASCII): typed accents would be dropped. Use the user's locale, or a UTF-8 one.
    private static func chooseUTF8Locale() {
        for name in ["", "C.UTF-8", "UTF-8", "en_US.UTF-8"] {
            guard setlocale(LC_CTYPE, name) != nil else { continue }
            if let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset).uppercased().replacingOccurrences(of: "-", with: "") == "UTF8" {
                return
            }
        }
    }
}

/// The reader whose `readLine` is running. libedit calls its completion function without a
/// context pointer; the call happens inside `readline`, on the thread that set this.
nonisolated(unsafe) private var activeReader: EditingLineReader?

private let completionEntry: LibEdit.CompletionFunction = { word, _, _ in
    guard let word, let reader = activeReader else { return nil }
    return reader.completions(of: String(cString: word))
}
