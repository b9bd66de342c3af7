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
    init(
        libedit: LibEdit, historyFile: URL?, output: UnsafeMutablePointer<FILE>?,
        complete: @escaping (String) -> LineCompletion?
    ) {
        self.libedit = libedit
        self.complete = complete
        Self.chooseUTF8Locale()
        libedit.readlineName.pointee = UnsafePointer(strdup("mnemo"))
        if let output { libedit.outputStream.pointee = output }
        libedit.getCharacterFunction.pointee = readCharacter
        _ = libedit.initialize()
        // libedit binds Ctrl-W to "kill region"; readline and shells delete the previous word.
        _ = libedit.parseAndBind("bind ^W ed-delete-prev-word")
        libedit.attemptedCompletionFunction.pointee = completionEntry
        // Ctrl-C abandons the line being typed, as in a shell (see `readCharacter`); during a
        // search it still stops the program.
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            interruptPipe = (ends[0], ends[1])
            signal(SIGINT, interruptHandler)
        }
        libedit.stifleHistory(CInt(HistoryFile.capacity))
        if let historyFile {
            try? FileManager.default.createDirectory(
                at: historyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            historyPath = historyFile.path
            _ = libedit.readHistory(historyFile.path)
        } else {
            historyPath = nil
        }
    }

    /// The next line; an empty one when Ctrl-C abandoned the line being typed.
    func readLine(prompt: String) -> String? {
        activeReader = self
        interruptedWhileReading = 0
        isReading = 1
        let line = libedit.readline(prompt)
        isReading = 0
        activeReader = nil
        guard let line else {
            guard interruptedWhileReading != 0 else { return nil }
            print("^C")
            return ""
        }
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
        libedit.attemptedCompletionOver.pointee = 1 // never fall back to file names
        guard let buffer = libedit.lineBuffer.pointee else { return nil }
        let cursor = max(0, Int(libedit.point.pointee))
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: strlen(buffer))
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
            if let codeset = nl_langinfo(nl_item(CODESET)),
                String(cString: codeset).uppercased().replacingOccurrences(of: "-", with: "") == "UTF8"
            {
                return
            }
        }
    }
}

/// Whether `readline` is running, and whether Ctrl-C interrupted it: set in a signal handler,
/// which also writes a byte to `interruptPipe` to wake `readCharacter`.
nonisolated(unsafe) private var isReading: Int32 = 0
nonisolated(unsafe) private var interruptedWhileReading: Int32 = 0
nonisolated(unsafe) private var interruptPipe: (read: Int32, write: Int32) = (-1, -1)

private let interruptHandler: @convention(c) (Int32) -> Void = { signal in
    guard isReading != 0 else { _exit(128 + signal) }
    interruptedWhileReading = 1
    var byte: UInt8 = 0
    _ = write(interruptPipe.write, &byte, 1)
}

/// Reads one character from standard input for libedit, decoding UTF-8 into a Unicode scalar
/// (libedit stores the value as one wide character); -1 at the end of input or after Ctrl-C.
///
/// libedit's own reader would not notice Ctrl-C: the REPL reads on a thread of Swift's
/// concurrency pool while the signal goes to another thread, and a read that a signal does
/// interrupt is retried. So this reader waits on standard input and on the pipe the signal
/// handler writes to.
private let readCharacter: LibEdit.GetCharacterFunction = { _ in
    var scalar: UInt32 = 0
    var remaining = 0
    while true {
        var descriptors = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            pollfd(fd: interruptPipe.read, events: Int16(POLLIN), revents: 0),
        ]
        guard poll(&descriptors, 2, -1) > 0 || errno == EINTR else { return -1 }
        if descriptors[1].revents != 0 || interruptedWhileReading != 0 {
            var byte: UInt8 = 0
            if descriptors[1].revents != 0 { _ = read(interruptPipe.read, &byte, 1) }
            return -1
        }
        guard descriptors[0].revents != 0 else { continue }
        var byte: UInt8 = 0
        let count = read(STDIN_FILENO, &byte, 1)
        if count < 0 && errno == EINTR { continue }
        guard count == 1 else { return -1 }
        if remaining == 0 {
            switch byte {
            case 0..<0x80: return CInt(byte)
            case 0xC2..<0xE0: (scalar, remaining) = (UInt32(byte & 0x1F), 1)
            case 0xE0..<0xF0: (scalar, remaining) = (UInt32(byte & 0x0F), 2)
            case 0xF0..<0xF5: (scalar, remaining) = (UInt32(byte & 0x07), 3)
            default: return 0xFFFD
            }
        } else {
            guard byte & 0xC0 == 0x80 else { return 0xFFFD }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
            remaining -= 1
            if remaining == 0 { return CInt(bitPattern: scalar) }
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
