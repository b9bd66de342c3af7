import Foundation

/// Another program run to completion: the installer's pip and unzip, the bench's Python baselines.
enum ChildProcess {
    /// Runs `executable` (a path, or a bare name resolved through `PATH` by `/usr/bin/env`) with
    /// `arguments` and no input, and returns its exit status and its standard output and error
    /// together; `environment` is added to this process's. Output is read before waiting for the
    /// exit, so a chatty program cannot block on a full pipe.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, output: String
    ) {
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The floats' bytes, as the bench's Python scripts read them (`np.fromfile(…, dtype="<f4")`):
    /// every platform Mnemo runs on is little-endian.
    static func rawFloats(_ values: [Float]) -> Data {
        values.withUnsafeBufferPointer { Data(buffer: $0) }
    }
}
