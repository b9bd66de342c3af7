import Foundation
import Mnemo
import MnemoPostgres
import MnemoTestSupport
import Testing

/// Real `mnemo serve` processes on one PostgreSQL, as an operator runs them.
@Suite("mnemo serve nodes on PostgreSQL", .enabled(if: TestStore.isAvailable, TestStore.skipNote))
struct ServeNodesTests {
    static func extract(_ user: String, _ content: String) -> String {
        """
        {"user_id": "\(user)", "conversation_id": "c1", "extracted": [{"content": "\(content)", "category": "home"}]}
        """
    }

    @Test func aFactWrittenThroughOneNodeIsFoundThroughTheOther() async throws {
        let url = try #require(TestStore.url)
        let (a, b) = (
            try ServerProcess(["--db", url, "--storage-timeout", "60"]),
            try ServerProcess(["--db", url, "--storage-timeout", "60"])
        )
        defer {
            a.stop()
            b.stop()
        }
        try await a.waitUntilListening()
        try await b.waitUntilListening()
        let user = TestStore.namespace("user")
        let (created, body) = try await a.request(
            "/v1/facts/extract", method: "POST", body: Self.extract(user, "Lives in Porto near the river"))
        #expect(created == 201, "\(String(decoding: body, as: UTF8.self))")
        for mode in ["text", "semantic", "hybrid"] {
            let (status, found) = try await b.request(
                "/v1/facts/search", method: "POST",
                body: #"{"user_id": "\#(user)", "query": "Lives in Porto near the river", "mode": "\#(mode)"}"#)
            #expect(status == 200)
            #expect(String(decoding: found, as: UTF8.self).contains("Lives in Porto near the river"), "mode \(mode)")
        }
        let (health, report) = try await b.request("/healthz")
        #expect(health == 200)
        let storage = try #require(
            (try JSONSerialization.jsonObject(with: report) as? [String: Any])?["storage"] as? [String: Any])
        #expect(storage["namespaces_held"] as? Int ?? 0 >= 1)
        #expect(storage["change_feed_connected"] as? Bool == true)
        let (_, metrics) = try await b.request("/metrics")
        #expect(String(decoding: metrics, as: UTF8.self).contains("mnemo_namespaces_held"))
    }

    @Test(
        "PostgreSQL stopped under a node: 503 storage_unavailable fast, and back on its own",
        .enabled(if: ThrowawayCluster.isPossible))
    func storageOutage() async throws {
        let cluster = try ThrowawayCluster()
        defer { cluster.remove() }
        let server = try ServerProcess(["--db", cluster.url, "--storage-timeout", "2"])
        defer { server.stop() }
        try await server.waitUntilListening()
        let (before, _) = try await server.request(
            "/v1/facts/extract", method: "POST", body: Self.extract("u", "Has a cat"))
        #expect(before == 201)
        try cluster.stop()
        let (during, body) = try await server.request(
            "/v1/facts/extract", method: "POST", body: Self.extract("u", "Has a dog"))
        #expect(during == 503, "\(String(decoding: body, as: UTF8.self))")
        #expect(String(decoding: body, as: UTF8.self).contains("storage_unavailable"))
        try cluster.start()
        var after = 0
        for _ in 0..<40 where after != 201 {
            (after, _) = try await server.request(
                "/v1/facts/extract", method: "POST", body: Self.extract("u", "Has a dog"))
            if after != 201 { try await Task.sleep(for: .milliseconds(250)) }
        }
        #expect(after == 201)
        let (_, listed) = try await server.request("/v1/users/u/facts")
        let text = String(decoding: listed, as: UTF8.self)
        #expect(text.contains("Has a cat") && text.contains("Has a dog"))
    }

    @Test("A node killed during writes loses no acknowledged write", .enabled(if: ThrowawayCluster.isPossible))
    func killedNodeLosesNothingAcknowledged() async throws {
        let url = try #require(TestStore.url)
        let reader = try ServerProcess(["--db", url, "--storage-timeout", "60"])
        defer { reader.stop() }
        try await reader.waitUntilListening()
        let user = TestStore.namespace("kill")
        var acknowledged: [String] = []
        for round in 0..<3 {
            let writer = try ServerProcess(["--db", url, "--storage-timeout", "60"])
            try await writer.waitUntilListening()
            let stream = Task {
                var written: [String] = []
                for i in 0..<1_000 {
                    let content = "Round \(round) fact number \(i)"
                    guard
                        let (status, _) = try? await writer.request(
                            "/v1/facts/extract", method: "POST", body: Self.extract(user, content))
                    else { break }
                    if status == 201 { written.append(content) } else { break }
                }
                return written
            }
            try await Task.sleep(for: .milliseconds(300 + 200 * round))
            writer.stop(signal: SIGKILL)
            acknowledged += await stream.value
        }
        #expect(!acknowledged.isEmpty)
        var text = ""
        for offset in stride(from: 0, to: acknowledged.count + 500, by: 500) {
            let (_, listed) = try await reader.request("/v1/users/\(user)/facts?limit=500&offset=\(offset)")
            text += String(decoding: listed, as: UTF8.self)
        }
        let missing = acknowledged.filter { !text.contains("\"\($0)\"") }
        #expect(missing.isEmpty, "\(missing.count) of \(acknowledged.count) acknowledged writes are missing")
    }
}
