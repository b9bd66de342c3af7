import Foundation
import Mnemo

/// The progress bar of `mnemo ingest`: the share of the input read, the records read and the rate.
struct IngestProgressBar: Sendable {
    /// Inputs smaller than this finish before a bar is worth drawing.
    static let minimumBytes = 4 << 20

    private let status: StatusLine
    private let start = ContinuousClock.now

    /// A bar for `file` when the user watches a terminal and the input is large or of unknown size.
    static func forInput(_ file: String) -> IngestProgressBar? {
        guard let status = StatusLine.forTerminal() else { return nil }
        if file != "-" {
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.intValue ?? 0
            guard size >= minimumBytes else { return nil }
        }
        return IngestProgressBar(status: status)
    }

    func update(_ progress: IngestProgress) {
        guard !progress.isFinished else { return }
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        let rate = Double(progress.recordsRead) / max(elapsed, 0.001)
        var line = ""
        if let fraction = progress.fractionRead {
            let width = 30
            let filled = Int(fraction * Double(width))
            line += "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + "] "
            line += String(format: "%3.0f%%  ", fraction * 100)
        }
        line += "\(progress.recordsRead) records  \(Int(rate))/s"
        if progress.rejected > 0 { line += "  \(progress.rejected) rejected" }
        status.show(line)
    }

    /// Clears the bar so the report prints on a clean line.
    func finish() { status.finish() }
}
