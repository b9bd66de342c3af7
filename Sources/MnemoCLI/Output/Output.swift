import Foundation
import Mnemo

/// Printing helpers shared by the commands.
enum Output {
    static func json(_ value: some Encodable) throws {
        print(String(decoding: try JSONEncoder.mnemoOutput(pretty: true).encode(value), as: UTF8.self))
    }

    /// Writes a line to standard error (warnings, progress, announcements).
    static func note(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// Whether standard output is a terminal (tables and progress) or a pipe (plain text).
    static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Left-aligned text columns.
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }
}
