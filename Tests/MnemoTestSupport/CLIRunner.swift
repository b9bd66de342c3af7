import Foundation

/// Runs the `mnemo` executable that `swift test` built next to the test bundle.
package enum CLIRunner {
    package struct Result {
        package var status: Int32
        package var stdout: String
        package var stderr: String

        /// The standard output parsed as JSON.
        package func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(stdout.utf8)) }
    }

    package static var binary: URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On Linux the runner is the .xctest file itself; on macOS it sits inside the bundle.
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("mnemo").path), folder.path != "/" {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("mnemo")
    }

    /// Runs `mnemo`, or `executable` (such as a shell) with `arguments` that end up running it;
    /// `input`, when given, is its standard input (else none).
    package static func run(
        _ arguments: [String], environment: [String: String] = [:], input: String? = nil,
        executable: URL? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable ?? binary
        process.arguments = executable == nil ? arguments : Array(arguments.dropFirst())
        // No model: commands that embed fall back to the hashing embedder, so runs are fast and
        // the same on every machine.
        var env = ProcessInfo.processInfo.environment
        env["MNEMO_MODEL"] = FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-no-model").path
        env["MNEMO_DB"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
