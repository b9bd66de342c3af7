import Foundation
import MnemoTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// PostgreSQL stopped under a real `mnemo serve` node, as a crash stops it
/// (`pg_ctl stop -m immediate`), and started again.
@Suite(
    "A node through a PostgreSQL outage", .enabled(if: TestStore.isAvailable, TestStore.skipNote),
    .enabled(if: ThrowawayCluster.isPossible))
struct StorageOutageTests {
    struct Answer {
        var status: Int
        var headers: [String: String]
        var text: String
        var took: Duration
    }

    static func send(_ port: Int, _ path: String, method: String = "GET", body: String? = nil) async throws -> Answer {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.timeoutInterval = 60
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let started = ContinuousClock.now
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            headers["\(name)".lowercased()] = "\(value)"
        }
        return Answer(
            status: http?.statusCode ?? 0, headers: headers, text: String(decoding: data, as: UTF8.self),
            took: ContinuousClock.now - started)
    }

    static func extract(_ user: String, _ content: String) -> String {
        #"{"user_id": "\#(user)", "extracted": [{"content": "\#(content)", "category": "home"}]}"#
    }

    static func search(_ user: String, _ query: String) -> String {
        #"{"user_id": "\#(user)", "query": "\#(query)", "mode": "text"}"#
    }

    @Test(
        "Writes refused at once after the first failure, held namespaces answer marked stale, health says so, and service returns"
    )
    func outage() async throws {
        let cluster = try ThrowawayCluster()
        defer { cluster.remove() }
        // A long storage timeout: a request that waited for PostgreSQL would show.
        let server = try ServerProcess(["--db", cluster.url, "--storage-timeout", "20"])
        defer { server.stop() }
        try await server.waitUntilListening()
        let port = server.port
        let written = try await Self.send(
            port, "/v1/facts/extract", method: "POST", body: Self.extract("held", "Has a cat"))
        #expect(written.status == 201, "\(written.text)")
        let healthy = try await Self.send(port, "/healthz")
        #expect(healthy.status == 200 && healthy.text.contains(#""state":"available""#), "\(healthy.text)")
        // A stream of the held namespace, open before the outage, hears of it.
        let stream = ThreadJob {
            try EventStreamClient(port: port, path: "/api/events").read(count: 1, timeout: 60)
        }
        try await Task.sleep(for: .milliseconds(300))

        try cluster.stop(mode: "immediate")
        // The first request may be the one that finds PostgreSQL gone (the lost change feed
        // usually finds it first); it answers 503 within the storage timeout.
        let first = try await Self.send(
            port, "/v1/facts/extract", method: "POST", body: Self.extract("held", "Has a dog"))
        #expect(first.status == 503, "\(first.text)")
        for attempt in 0..<10 {
            let refused = try await Self.send(
                port, "/v1/facts/extract", method: "POST", body: Self.extract("held", "Has a dog \(attempt)"))
            #expect(refused.status == 503 && refused.text.contains("storage_unavailable"), "\(refused.text)")
            #expect(refused.headers["retry-after"] == "1")
            // Without the probe, each waited out the 20 s timeout; half of it leaves room for a
            // loaded machine.
            #expect(refused.took < .seconds(10), "refused after \(refused.took)")
        }
        let search = try await Self.send(port, "/v1/facts/search", method: "POST", body: Self.search("held", "cat"))
        #expect(search.status == 200 && search.text.contains("Has a cat"), "\(search.text)")
        #expect(search.text.contains("Has a dog") == false)
        let stale = try #require(search.headers["mnemo-stale-seconds"].flatMap { Int($0) }, "\(search.headers)")
        #expect(stale >= 0)
        let listing = try await Self.send(port, "/v1/users/held/facts")
        #expect(listing.status == 200 && listing.headers["mnemo-stale-seconds"] != nil)
        let notHeld = try await Self.send(port, "/v1/facts/search", method: "POST", body: Self.search("other", "cat"))
        #expect(notHeld.status == 503 && notHeld.text.contains("storage_unavailable"), "\(notHeld.text)")
        #expect(notHeld.took < .seconds(10))
        let down = try await Self.send(port, "/healthz")
        #expect(down.status == 503, "\(down.text)")
        #expect(
            down.text.contains(#""state":"unavailable""#) && down.text.contains("storage_unavailable"), "\(down.text)")
        let live = try await Self.send(port, "/livez")
        #expect(live.status == 200)
        let told = try await stream.value
        #expect(told.messages.contains { $0.event == "storageUnavailable" }, "\(told.messages)")

        try cluster.start()
        var back = Answer(status: 0, headers: [:], text: "", took: .zero)
        for _ in 0..<80 where back.status != 201 {
            back = try await Self.send(
                port, "/v1/facts/extract", method: "POST", body: Self.extract("held", "Has a dog"))
            if back.status != 201 { try await Task.sleep(for: .milliseconds(250)) }
        }
        #expect(back.status == 201, "\(back.text)")
        let healthyAgain = try await Self.send(port, "/healthz")
        #expect(healthyAgain.status == 200, "\(healthyAgain.text)")
        let fresh = try await Self.send(port, "/v1/facts/search", method: "POST", body: Self.search("held", "dog"))
        #expect(fresh.status == 200 && fresh.text.contains("Has a dog") && fresh.headers["mnemo-stale-seconds"] == nil)
        let other = try await Self.send(port, "/v1/facts/search", method: "POST", body: Self.search("other", "cat"))
        #expect(other.status == 200, "\(other.text)")
    }
}
