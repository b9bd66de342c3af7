import Foundation

/// A one-line status on standard error, redrawn in place at most ten times a second, shown
/// only when both standard output and standard error are terminals: never in logs, and never
/// when a script reads the output.
final class StatusLine: @unchecked Sendable {
    private let lock = NSLock()
    private let clock = ContinuousClock()
    private var lastDraw: ContinuousClock.Instant?
    private var drawn = false

    /// A status line, or `nil` when output goes to a file, a pipe or a log.
    static func forTerminal() -> StatusLine? {
        isatty(STDOUT_FILENO) == 1 && isatty(STDERR_FILENO) == 1 ? StatusLine() : nil
    }

    /// Shows `text`; `force` draws even if the last draw was under 0.1 s ago.
    func show(_ text: String, force: Bool = false) {
        lock.withLock {
            let now = clock.now
            if !force, let lastDraw, now - lastDraw < .milliseconds(100) { return }
            lastDraw = now
            drawn = true
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
        }
    }

    /// `label done/total (percent)`.
    func show(_ label: String, done: Int, total: Int) {
        let percent = total > 0 ? 100 * done / total : 100
        show("\(label) \(done.formatted())/\(total.formatted()) (\(percent)%)", force: done == total)
    }

    /// Clears the line so the report prints on a clean one.
    func finish() {
        lock.withLock {
            if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            drawn = false
        }
    }
}
