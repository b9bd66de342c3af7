import Foundation

/// Where the REPL keeps its history between sessions.
enum HistoryFile {
    /// `$MNEMO_HISTORY` (empty: keep no history), else `repl_history` in the user's data folder:
    /// `$XDG_DATA_HOME/mnemo` or `~/.local/share/mnemo` on Linux, `~/Library/Application
    /// Support/mnemo` on macOS.
    static func url(environment: [String: String]) -> URL? {
        if let path = environment["MNEMO_HISTORY"] {
            return path.isEmpty ? nil : URL(fileURLWithPath: path)
        }
        guard
            let folder = try? FileManager.default.url(
                for: .applicationSupportDirectory, in: .userDomainMask,
                appropriateFor: nil, create: false)
        else { return nil }
        return folder.appendingPathComponent("mnemo").appendingPathComponent("repl_history")
    }

    /// The number of lines kept.
    static let capacity = 1_000
}
