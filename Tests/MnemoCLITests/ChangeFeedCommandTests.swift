import Foundation
import Mnemo
import MnemoTestSupport
import Testing

/// The change feed as people and programs follow it: `mnemo serve`'s event stream over a real
/// socket, resumed with `Last-Event-ID`; `mnemo watch`; and a library observation that sees
/// another process's write.
@Suite struct ChangeFeedCommandTests {
    /// A JSONL file of `count` distinct facts, each `prefix` and its number.
    static func factsFile(_ count: Int, prefix: String = "Logged event number") throws -> String {
        let path = try TestKnowledgeBase.temporaryFolder().appendingPathComponent("facts.jsonl").path
        let lines = (0..<count).map { #"{"topic": "Log/Part \#($0 % 7)", "content": "\#(prefix) \#($0)"}"# }
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aCutEventStreamResumesWithEveryEventOnceInOrder() async throws {
        let database = try TestKnowledgeBase.temporaryPath()
        let facts = try Self.factsFile(10_000)
        let ingest = try await ThreadJob { try CLIRunner.run(["ingest", facts, "--db", database, "--no-embeddings"]) }
            .value
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let expected = try await Self.allCursors(database)
        #expect(expected.count > 10_000)

        let server = try ServerProcess(["--db", database])
        try await server.waitUntilListening()
        defer { server.stop() }
        var received: [String] = []
        var lastID = ChangeCursor(sequence: 0, namespace: "default").description
        var random = SystemRandomNumberGenerator()
        while received.count < expected.count {
            let client = EventStreamClient(
                port: server.port, path: "/api/events", headers: ["Last-Event-ID": lastID])
            let take = Int.random(in: 1...2_500, using: &random)
            let reading = try await ThreadJob { try client.read(count: take, timeout: 60) }.value
            #expect(reading.status == 200)
            let ids = reading.messages.filter { $0.event != "ready" }.compactMap(\.id)
            guard let last = ids.last else { break }
            received += ids
            lastID = last
        }
        #expect(received == expected)
    }

    @Test func eventsReachAStreamAsTheyAreWritten() async throws {
        let database = try TestKnowledgeBase.temporaryPath()
        let server = try ServerProcess(["--db", database])
        try await server.waitUntilListening()
        defer { server.stop() }
        let client = EventStreamClient(port: server.port, path: "/api/events")
        // A generous limit: the read ends with the second event; a machine that stalls must not end it first.
        let reading = ThreadJob { try client.read(count: 2, timeout: 180) }
        try await Task.sleep(for: .milliseconds(500))
        let (status, _) = try await HTTPRequest.send(
            server.port, "/v1/facts/extract", method: "POST",
            body: #"{"conversation_id": "c1", "extracted": [{"content": "Lives in Porto", "category": "home"}]}"#)
        #expect(status == 201)
        let messages = try await reading.value.messages
        #expect(messages.first?.event == "ready")
        #expect(messages.dropFirst().map(\.event) == ["topicsUpdated", "factsUpdated"])
        let added = try #require(messages.last)
        let event = try #require(try JSONSerialization.jsonObject(with: Data(added.data.utf8)) as? [String: Any])
        #expect(event["event"] as? String == "fact_added")
        #expect((event["fact"] as? [String: Any])?["content"] as? String == "Lives in Porto")
        #expect(event["cursor"] as? String == added.id)
    }

    @Test func watchPrintsEachChangeAsItIsCommitted() async throws {
        let database = try TestKnowledgeBase.temporaryPath()
        let one = try Self.factsFile(1)
        #expect(try await Self.ingest(one, into: database) == 0)
        let watch = Process()
        watch.executableURL = CLIRunner.binary
        // From the cursor before the write, however late the process starts following.
        let start = try await KnowledgeBase(path: database).currentCursor()
        watch.arguments = ["watch", "--db", database, "--json", "--since", start.description]
        let output = Pipe()
        watch.standardOutput = output
        watch.standardError = FileHandle.nullDevice
        try watch.run()
        defer { watch.terminate() }
        // Ends the read below if the lines never come.
        DispatchQueue.global().asyncAfter(deadline: .now() + 180) { watch.terminate() }
        try await Task.sleep(for: .milliseconds(800))
        #expect(try await Self.ingest(try Self.celloFile(), into: database) == 0)
        let lines = try await ThreadJob { () -> [String] in
            var text = ""
            let handle = output.fileHandleForReading
            while text.split(separator: "\n").count < 2 {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            return text.split(separator: "\n").map(String.init)
        }.value
        let events = try lines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["event"] as? String
        }
        #expect(events == ["topic_created", "fact_added"])
    }

    @Test func anObservationSeesAnotherProcesssWrite() async throws {
        let database = try TestKnowledgeBase.temporaryPath()
        let one = try Self.factsFile(1)
        #expect(try await Self.ingest(one, into: database) == 0)
        let kb = try KnowledgeBase(path: database)
        let (firstValue, firstValueCame) = AsyncStream<Void>.makeStream()
        let values = Task {
            var counts: [Int] = []
            for try await facts in kb.observeFacts() {
                counts.append(facts.count)
                firstValueCame.yield()
                if counts.count == 2 { break }
            }
            return counts
        }
        // Write once the observation holds its first value.
        for await _ in firstValue { break }
        #expect(try await Self.ingest(try Self.celloFile(), into: database) == 0)
        #expect(try await values.value(cancellingAfter: .seconds(30)) == [1, 2])
    }

    /// Four writers in three processes on one file — two instances here editing at random, two
    /// `mnemo ingest` processes — and a reader following the feed while they write: its events,
    /// applied to an empty map, give exactly the memory the file ends with.
    @Test func aFollowerOfFourWritersRebuildsTheMemory() async throws {
        let database = try TestKnowledgeBase.temporaryPath()
        let reader = try KnowledgeBase(path: database)
        let start = try await reader.currentCursor()
        let end = Locked<Int64?>(nil)
        let following = Task {
            var facts: [Int64: Fact] = [:]
            var cursor = start
            while true {
                let page = try await reader.changes(after: cursor, limit: 50)
                for event in page.events {
                    if event.kind == .namespaceErased { facts = [:] }
                    if let id = event.factID { facts[id] = event.fact }
                }
                cursor = page.next
                guard page.events.isEmpty else { continue }
                if let end = end.withLock({ $0 }), cursor.sequence >= end { return facts }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        let ingests = try (0..<2).map { process in
            let file = try Self.factsFile(300, prefix: "Ingested by process \(process), fact")
            return ThreadJob { try CLIRunner.run(["ingest", file, "--db", database, "--no-embeddings"]) }
        }
        let editors = (0..<2).map { writer in
            Task { try await Self.editAtRandom(try KnowledgeBase(path: database), as: writer, steps: 150) }
        }
        for editor in editors { try await editor.value }
        for ingest in ingests {
            let result = try await ingest.value
            #expect(result.status == 0, "\(result.stderr)")
        }

        let memory = try await reader.snapshot()
        end.withLock { $0 = memory.cursor.sequence }
        let rebuilt = try await following.value(cancellingAfter: .seconds(60))
        #expect(rebuilt.count > 600)
        #expect(rebuilt == Dictionary(uniqueKeysWithValues: memory.facts.map { ($0.id, $0) }))
    }

    /// Adds, moves, deletes, erases and undoes at random, as one writer of a shared file.
    static func editAtRandom(_ kb: KnowledgeBase, as writer: Int, steps: Int) async throws {
        var ids: [Int64] = []
        var random = SystemRandomNumberGenerator()
        func pick(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &random) }
        for step in 0..<steps {
            try await RandomEdits.edit(kb, ids: &ids, adding: "Writer \(writer) noted fact \(step)", pick: pick)
        }
    }

    /// `mnemo ingest FILE --db DATABASE --no-embeddings` on a thread of its own; its status.
    static func ingest(_ file: String, into database: String) async throws -> Int32 {
        try await ThreadJob { try CLIRunner.run(["ingest", file, "--db", database, "--no-embeddings"]) }.value.status
    }

    /// A JSONL file of one fact, written by "another process" in the tests.
    static func celloFile() throws -> String {
        let path = try TestKnowledgeBase.temporaryFolder().appendingPathComponent("one.jsonl").path
        try #"{"topic": "Music", "content": "Plays the cello in a community orchestra"}"#.write(
            toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func allCursors(_ database: String) async throws -> [String] {
        let kb = try KnowledgeBase(path: database)
        var cursors: [String] = []
        var cursor: ChangeCursor? = nil
        while true {
            let page = try await kb.changes(after: cursor, limit: 1000)
            cursors += page.events.map(\.cursor.description)
            cursor = page.next
            if !page.hasMore { return cursors }
        }
    }
}
