import Foundation
import Mnemo

/// The progress bar of `mnemo ingest` on standard error: the share of the input read, the records
/// read and the rate, redrawn at most ten times a second.
final class IngestProgressBar: @unchecked Sendable {
    /// Inputs smaller than this finish before a bar is worth drawing.
    static let minimumBytes = 4 << 20

    private let lock = NSLock()
    private let start = Date()
    private var lastDraw = Date.distantPast
    private var drawn = false

    /// A bar for `file` when standard error is a terminal and the input is large or of unknown size.
    static func forInput(_ file: String) -> IngestProgressBar? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        if file != "-" {
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.intValue ?? 0
            guard size >= minimumBytes else { return nil }
        }
        return IngestProgressBar()
    }

    func update(_ progress: IngestProgress) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard !progress.isFinished, now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        drawn = true
        let rate = Double(progress.recordsRead) / max(now.timeIntervalSince(start), 0.001)
        var line = ""
        if let fraction = progress.fractionRead {
            let width = 30
            let filled = Int(fraction * Double(width))
            line += "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + "] "
            line += String(format: "%3.0f%%  ", fraction * 100)
        }
        line += "\(progress.recordsRead) records  \(Int(rate))/s"
        if progress.rejected > 0 { line += "  \(progress.rejected) rejected" }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
    }

    /// Clears the bar so the report prints on a clean line.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
