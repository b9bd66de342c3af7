import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A running `mnemo serve` (the built executable, without a model: the hashing embedder) and the
/// port it reported.
package final class ServerProcess: @unchecked Sendable {
    package let process = Process()
    let errors = Pipe()
    package private(set) var port = 0
    private var stderrText = ""

    package init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = CLIRunner.binary
        process.arguments = ["serve", "--port", "0"] + arguments
        var env = ProcessInfo.processInfo.environment
        env["MNEMO_MODEL"] = FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-no-model").path
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
    }

    /// Reads stderr until the server says where it listens, on a thread of its own.
    ///
    /// Reading blocks, and on two cores Swift's concurrency pool has two threads: two tests
    /// blocked here held them both, so that no other test's task ran, among them one holding the
    /// store's start-up lock that these servers waited for. It also gives up after `timeout`.
    package func waitUntilListening(timeout: Duration = .seconds(120)) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread {
                do {
                    try self.readUntilListening(timeout: timeout)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    private func readUntilListening(timeout: Duration) throws {
        let handle = errors.fileHandleForReading
        let deadline = ContinuousClock.now + timeout
        while port == 0 {
            var ready = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 200) > 0 else {
                guard process.isRunning, ContinuousClock.now < deadline else {
                    throw ServerFailure("mnemo serve did not listen (running: \(process.isRunning)): \(stderrText)")
                }
                continue
            }
            let chunk = handle.availableData
            guard !chunk.isEmpty else { throw ServerFailure("mnemo serve exited before listening: \(stderrText)") }
            stderrText += String(decoding: chunk, as: UTF8.self)
            if let range = stderrText.range(of: #"http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                port = Int(stderrText[range].split(separator: ":").last!)!
            }
        }
    }

    /// Stops it with `signal` (SIGTERM: a clean stop) and returns its status and error output.
    @discardableResult
    package func stop(signal: Int32 = SIGTERM) -> (status: Int32, stderr: String) {
        kill(process.processIdentifier, signal)
        // A server stuck as it exits is killed, so that the test ends.
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning, ContinuousClock.now < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        stderrText += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, stderrText)
    }

    /// Sends a request to the server.
    package func request(_ path: String, method: String = "GET", body: String? = nil) async throws -> (Int, Data) {
        try await HTTPRequest.send(port, path, method: method, body: body)
    }
}

package enum HTTPRequest {
    /// Sends a request to a server on 127.0.0.1 and returns its status and body.
    package static func send(_ port: Int, _ path: String, method: String = "GET", body: String? = nil) async throws -> (
        Int, Data
    ) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }
}

package struct ServerFailure: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
