import Foundation

/// A one-line progress bar on stderr, drawn only when stderr is a terminal.
final class ProgressBar: @unchecked Sendable {
    private let label: String
    private let enabled = isatty(STDERR_FILENO) == 1
    private let lock = NSLock()
    private var lastDrawn = Date.distantPast

    init(label: String) {
        self.label = label
    }

    func update(done: Int, total: Int) {
        guard enabled else { return }
        lock.withLock {
            // Redraw at most ten times a second, and always at the end.
            guard done >= total || Date().timeIntervalSince(lastDrawn) > 0.1 else { return }
            lastDrawn = Date()
            let fraction = total > 0 ? Double(done) / Double(total) : 1
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            FileHandle.standardError.write(Data("\r\(label) \(bar) \(done)/\(total)".utf8))
        }
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
