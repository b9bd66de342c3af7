import Foundation
import MnemoTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `mnemo serve` as a user runs it: a real process on a real socket, stopped with SIGTERM.
@Suite struct ServeCommandTests {
    /// A running `mnemo serve` and the port it reported.
    private final class ServerProcess: @unchecked Sendable {
        let process = Process()
        let errors = Pipe()
        private(set) var port = 0
        private var stderrText = ""

        init(_ arguments: [String]) throws {
            process.executableURL = CLIRunner.binary
            process.arguments = ["serve", "--port", "0"] + arguments
            var environment = ProcessInfo.processInfo.environment
            environment["MNEMO_MODEL"] =
                FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-no-model").path
            process.environment = environment
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
        }

        /// Reads stderr until the server says where it listens.
        func waitUntilListening() throws {
            let handle = errors.fileHandleForReading
            while port == 0 {
                let chunk = handle.availableData
                guard !chunk.isEmpty else { throw CLIFailure("mnemo serve exited before listening: \(stderrText)") }
                stderrText += String(decoding: chunk, as: UTF8.self)
                if let range = stderrText.range(of: #"http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                    port = Int(stderrText[range].split(separator: ":").last!)!
                }
            }
        }

        func stop() -> (status: Int32, stderr: String) {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            stderrText += String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return (process.terminationStatus, stderrText)
        }
    }

    private struct CLIFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    private func request(_ port: Int, _ path: String, method: String = "GET", body: String? = nil) async throws -> (
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

    @Test func servesUntilSIGTERMThenExitsCleanly() async throws {
        let database = try TestKnowledgeBase.temporaryPath()
        let server = try ServerProcess(["--db", database])
        try server.waitUntilListening()
        let (health, _) = try await request(server.port, "/healthz")
        #expect(health == 200)
        let (created, body) = try await request(
            server.port, "/v1/facts/extract", method: "POST",
            body: """
                {"user_id": "u1", "conversation_id": "c1", "extracted": [{"content": "Lives in Porto", "category": "home"}]}
                """)
        #expect(created == 201, "\(String(decoding: body, as: UTF8.self))")
        let (listed, list) = try await request(server.port, "/v1/users/u1/facts")
        #expect(listed == 200)
        #expect(String(decoding: list, as: UTF8.self).contains("Lives in Porto"))
        let (status, stderr) = server.stop()
        #expect(status == 0, "\(stderr)")
        #expect(stderr.contains("stopped"))
        // The write is in the file for the next process.
        let export = try CLIRunner.run(["export", "--db", database, "--all-namespaces"])
        #expect(export.stdout.contains("Lives in Porto"))
    }

    @Test func refusesToServeWithoutAuthenticationOffLoopback() throws {
        let result = try CLIRunner.run(["serve", "--db", TestKnowledgeBase.temporaryPath(), "--host", "0.0.0.0"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("without authentication"))
        let missingFile = try CLIRunner.run(["serve", "--auth", "tokens"])
        #expect(missingFile.status != 0)
        #expect(missingFile.stderr.contains("--tokens-file"))
    }
}
