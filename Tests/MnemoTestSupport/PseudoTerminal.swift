import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `mnemo` on a pseudo-terminal and types into it, as a person at a terminal would.
///
/// Every wait is for some text to appear (with a generous time limit for a loaded machine), never
/// a fixed sleep, so the tests are as fast as the program and do not depend on timing.
package final class PseudoTerminal {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    package static let up = "\u{1B}[A"
    package static let left = "\u{1B}[D"
    package static let ctrlA = "\u{01}"
    package static let ctrlD = "\u{04}"
    package static let ctrlE = "\u{05}"
    package static let ctrlR = "\u{12}"
    package static let ctrlU = "\u{15}"
    package static let ctrlW = "\u{17}"
    package static let tab = "\t"

    private let process = Process()
    private let master: Int32
    /// Whether the program reads keys with a line editor, which takes the terminal out of
    /// canonical mode while it reads a line (see ``send(_:)``).
    private let lineEditing: Bool
    private var bytes: [UInt8] = []
    /// Where the last `waitFor` matched: each wait looks only at output after the previous match.
    private var consumed = 0

    /// Starts `mnemo arguments` with the terminal as its standard input, output and error.
    package init(_ arguments: [String], environment: [String: String] = [:], lineEditing: Bool = true) throws {
        self.lineEditing = lineEditing
        master = PTY.openMaster(O_RDWR | O_NOCTTY)
        guard master >= 0, PTY.grant(master) == 0, PTY.unlock(master) == 0, let name = PTY.slaveName(master) else {
            throw Failure(description: "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        var size = winsize(ws_row: 40, ws_col: 120, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        let terminal = open(name, O_RDWR | O_NOCTTY)
        guard terminal >= 0 else { throw Failure(description: "cannot open \(String(cString: name))") }
        let handle = FileHandle(fileDescriptor: terminal, closeOnDealloc: true)
        process.executableURL = CLIRunner.binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["MNEMO_MODEL"] = FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-no-model").path
        env["MNEMO_DB"] = nil
        env["TERM"] = "xterm"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try handle.close()
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        if process.isRunning { process.terminate() }
        close(master)
    }

    /// Types `keys`, once the line editor reads keys.
    ///
    /// libedit prints its prompt before it takes the terminal out of canonical mode, and puts
    /// the terminal back into it between lines. Keys arriving in canonical mode go through the
    /// kernel's line discipline instead: it consumes Ctrl-D and Ctrl-U itself, and what it keeps
    /// reaches the editor later, after a Ctrl-C already abandoned the line. A person waits for
    /// the cursor; so does this, up to 10 seconds (then it types anyway), when the program edits
    /// lines. (On Linux the master side reads the terminal's modes.)
    package func send(_ keys: String) {
        if lineEditing {
            let deadline = ContinuousClock.now + .seconds(10)
            var modes = termios()
            while tcgetattr(master, &modes) == 0, modes.c_lflag & tcflag_t(ICANON) != 0, ContinuousClock.now < deadline
            {
                usleep(2_000)
            }
        }
        var data = Array(keys.utf8)
        while !data.isEmpty {
            let written = write(master, data, data.count)
            if written > 0 { data.removeFirst(written) } else if errno != EAGAIN && errno != EINTR { return }
        }
    }

    /// Sends SIGINT, as Ctrl-C does on a terminal the program controls (this one it does not).
    package func interrupt() {
        kill(process.processIdentifier, SIGINT)
    }

    /// Waits until the screen output after the previous match contains `text` (escape
    /// sequences and carriage returns removed); returns that output.
    @discardableResult
    package func waitFor(_ text: String, timeout: Duration = .seconds(60)) throws -> String {
        try waitUntil(timeout: timeout, describing: text) { $0.range(of: text) }
    }

    /// Waits until the output after the previous match holds a match of `pattern`.
    @discardableResult
    package func waitFor(pattern: String, timeout: Duration = .seconds(60)) throws -> String {
        let regex = try NSRegularExpression(pattern: pattern)
        return try waitUntil(timeout: timeout, describing: pattern) { screen in
            regex.firstMatch(in: screen, range: NSRange(screen.startIndex..., in: screen)).flatMap {
                Range($0.range, in: screen)
            }
        }
    }

    /// Waits for the program to exit, reading what it still prints; returns its status.
    package func waitForExit(timeout: Duration = .seconds(60)) throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                throw Failure(description: "mnemo did not exit; it printed:\n\(screen)")
            }
            readAvailable(waitingMilliseconds: 50)
        }
        readAvailable(waitingMilliseconds: 0)
        return process.terminationStatus
    }

    /// Everything printed so far, escape sequences removed.
    package var screen: String { Self.plain(String(decoding: bytes, as: UTF8.self)) }

    private func waitUntil(timeout: Duration, describing: String, match: (String) -> Range<String.Index>?) throws
        -> String
    {
        let deadline = ContinuousClock.now + timeout
        while true {
            let screen = screen
            let unread = String(screen.dropFirst(consumed))
            if let range = match(unread) {
                consumed += unread.distance(from: unread.startIndex, to: range.upperBound)
                return String(unread[..<range.upperBound])
            }
            guard ContinuousClock.now < deadline, process.isRunning || readAvailable(waitingMilliseconds: 0) else {
                throw Failure(
                    description: "waited in vain for \(describing.debugDescription); mnemo printed:\n\(unread)")
            }
            readAvailable(waitingMilliseconds: 100)
        }
    }

    /// Reads what the program printed; whether there was anything.
    @discardableResult
    private func readAvailable(waitingMilliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, waitingMilliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = read(master, &buffer, buffer.count)
        guard count > 0 else { return false }
        bytes += buffer[..<count]
        return true
    }

    /// Terminal output as text: ANSI escape sequences, carriage returns and bells removed.
    package static func plain(_ output: String) -> String {
        output.replacingOccurrences(
            of: "\u{1B}(\\[[0-9;?]*[ -/]*[@-~]|[()][A-Z0-9]|[=>78])", with: "", options: .regularExpression
        )
        .replacingOccurrences(of: "[\r\u{07}]", with: "", options: .regularExpression)
    }
}

/// posix_openpt, grantpt, unlockpt and ptsname: in every C library, but not in Swift's Glibc
/// module (they need _XOPEN_SOURCE), so found by name.
private enum PTY {
    package typealias Function = @convention(c) (CInt) -> CInt
    package typealias NameFunction = @convention(c) (CInt) -> UnsafeMutablePointer<CChar>?

    package static let openMaster = unsafeBitCast(symbol("posix_openpt"), to: Function.self)
    package static let grant = unsafeBitCast(symbol("grantpt"), to: Function.self)
    package static let unlock = unsafeBitCast(symbol("unlockpt"), to: Function.self)
    package static let slaveName = unsafeBitCast(symbol("ptsname"), to: NameFunction.self)

    private static func symbol(_ name: String) -> UnsafeMutableRawPointer {
        dlsym(dlopen(nil, RTLD_NOW), name)!
    }
}
