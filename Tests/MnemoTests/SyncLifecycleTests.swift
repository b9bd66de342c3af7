import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

#if canImport(Glibc)
    import Glibc
#endif

/// Sync across the life of an app, with real `mnemo serve` processes, real device files and
/// `mnemo sync`: a file restored from a backup, a file pointed at another server, a server
/// restored from a backup, a file that held facts before its first link, and the failures an
/// app must tell apart.
@Suite(.serialized) struct SyncLifecycleTests {
    /// A folder with a token for `user-42`, device files and servers on it.
    struct Lab {
        let folder: URL
        let tokens: String
        let token: String

        init() throws {
            folder = try TestKnowledgeBase.temporaryFolder()
            tokens = folder.appendingPathComponent("tokens.txt").path
            token = folder.appendingPathComponent("token").path
            try "tok-42 user-42\n".write(toFile: tokens, atomically: true, encoding: .utf8)
            try "tok-42\n".write(toFile: token, atomically: true, encoding: .utf8)
        }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        func serve(_ database: String) async throws -> ServerProcess {
            let process = try ServerProcess(["--db", database, "--auth", "tokens", "--tokens-file", tokens])
            try await process.waitUntilListening()
            return process
        }

        @discardableResult
        func sync(_ device: String, _ server: ServerProcess, _ extra: [String] = []) throws -> CLIRunner.Result {
            try sync(device, url: "http://127.0.0.1:\(server.port)", extra)
        }

        func sync(_ device: String, url: String, _ extra: [String] = []) throws -> CLIRunner.Result {
            try CLIRunner.run(
                ["sync", "--server", url, "--token-file", token, "--db", device, "--namespace", "user-42"] + extra)
        }

        func add(_ device: String, _ contents: String...) throws {
            try add(device, topic: "Notes", contents)
        }

        func add(_ device: String, topic: String, _ contents: [String]) throws {
            let lines = contents.map { #"{"topic": "\#(topic)", "content": "\#($0)"}"# }.joined(separator: "\n")
            let result = try CLIRunner.run(
                ["ingest", "--db", device, "--namespace", "user-42", "--no-embeddings", "--format", "jsonl", "-"],
                input: lines + "\n")
            #expect(result.status == 0, "\(result.stderr)")
        }

        /// The contents of a file's facts, sorted (read with no other connection left open).
        func contents(_ database: String) throws -> [String] {
            try DatabaseQueue(path: database).read { db in
                try String.fetchAll(db, sql: "SELECT content FROM fact WHERE namespace = 'user-42' ORDER BY content")
            }
        }

        /// Every fact's uid and fields as sync compares them, sorted by uid.
        func states(_ database: String) throws -> [String] {
            try DatabaseQueue(path: database).read { db in
                var states: [String] = []
                try FactTable.forEach(db, namespace: "user-42") {
                    states.append("\($0.uid) \($0.content) \($0.topicPath) \($0.importance) \($0.mentionCount)")
                }
                return states.sorted()
            }
        }

        /// Copies a closed database file as a backup tool does: the file alone.
        func copy(_ source: String, to target: String) throws {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: target + suffix) }
            try FileManager.default.copyItem(atPath: source, toPath: target)
            // A backup of the app's folder takes the write-ahead log with the file: without it,
            // commits not yet checkpointed would be missing from the copy.
            if FileManager.default.fileExists(atPath: source + "-wal") {
                try FileManager.default.copyItem(atPath: source + "-wal", toPath: target + "-wal")
            }
        }
    }

    enum Backup: String, CaseIterable {
        case fileCopy, onlineBackup
    }

    @Test(arguments: Backup.allCases)
    func aDeviceRestoredFromAnOlderBackupThenWrittenLosesNothing(_ backup: Backup) async throws {
        let lab = try Lab()
        let server = try await lab.serve(lab.path("server.sqlite"))
        defer { server.stop() }
        let phone = lab.path("phone.sqlite")
        let saved = lab.path("phone-backup.sqlite")
        try lab.add(phone, "Lives in Porto")
        #expect(try lab.sync(phone, server).status == 0)
        switch backup {
        case .fileCopy: try lab.copy(phone, to: saved)
        case .onlineBackup:
            // SQLite's online backup, taken from a file another connection has open.
            let source = try DatabaseQueue(path: phone)
            try source.backup(to: try DatabaseQueue(path: saved))
        }
        try lab.add(phone, "Has a cat named Miso")
        #expect(try lab.sync(phone, server).status == 0)

        // The phone is restored from the backup, then written.
        try lab.copy(saved, to: phone)
        try lab.add(phone, "Plays the cello")
        let after = try lab.sync(phone, server)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout.contains("this file went back"), "\(after.stdout)")
        #expect(after.stdout.contains("verified"), "\(after.stdout)")

        let everything = ["Has a cat named Miso", "Lives in Porto", "Plays the cello"]
        let tablet = lab.path("tablet.sqlite")
        #expect(try lab.sync(tablet, server).status == 0)
        server.stop()
        #expect(
            try lab.contents(lab.path("server.sqlite")) == everything, "the write after the restore reached the server")
        #expect(try lab.contents(phone) == everything, "the restored phone has what it wrote before the restore again")
        #expect(try lab.states(phone) == lab.states(lab.path("server.sqlite")))
        #expect(try lab.states(tablet) == lab.states(lab.path("server.sqlite")))
    }

    @Test func aLinkedFileRefusesAnotherServerUntilRelinked() async throws {
        let lab = try Lab()
        let home = try await lab.serve(lab.path("home.sqlite"))
        defer { home.stop() }
        let other = try await lab.serve(lab.path("other.sqlite"))
        defer { other.stop() }
        let phone = lab.path("phone.sqlite")
        try lab.add(phone, "Lives in Porto")
        #expect(try lab.sync(phone, home).status == 0)
        try lab.add(phone, "Has a cat named Miso")

        let refused = try lab.sync(phone, other)
        #expect(refused.status == 16, "\(refused.stdout) \(refused.stderr)")
        #expect(refused.stderr.contains("other_server"), "\(refused.stderr)")
        let json = try lab.sync(phone, other, ["--json"])
        let error = try #require((try json.json() as? [String: Any])?["error"] as? [String: Any], "\(json.stdout)")
        #expect(error["class"] as? String == "other_server")
        let status = try CLIRunner.run(["sync", "--status", "--db", phone, "--namespace", "user-42", "--json"])
        #expect(status.stdout.contains(#""waiting" : 1"#), "the refused write still waits: \(status.stdout)")

        let back = try lab.sync(phone, home)
        #expect(back.status == 0 && back.stdout.contains("pushed 1"), "\(back.stdout) \(back.stderr)")

        let relinked = try lab.sync(phone, other, ["--relink"])
        #expect(relinked.status == 0, "\(relinked.stderr)")
        #expect(try lab.sync(phone, home).status == 16, "now linked to the other server")
        home.stop()
        other.stop()
        let both = ["Has a cat named Miso", "Lives in Porto"]
        #expect(try lab.contents(lab.path("home.sqlite")) == both)
        #expect(try lab.contents(lab.path("other.sqlite")) == both)
        #expect(try lab.contents(phone) == both)
    }

    @Test func aServerRestoredFromABackupGetsBackWhatDevicesHold() async throws {
        let lab = try Lab()
        let database = lab.path("server.sqlite")
        var server = try await lab.serve(database)
        let phone = lab.path("phone.sqlite")
        let tablet = lab.path("tablet.sqlite")
        try lab.add(phone, "Lives in Porto")
        #expect(try lab.sync(phone, server).status == 0)
        #expect(try lab.sync(tablet, server).status == 0)
        server.stop()
        try lab.copy(database, to: lab.path("server-backup.sqlite"))
        server = try await lab.serve(database)
        try lab.add(phone, "Has a cat named Miso")
        try lab.add(phone, "Plays the cello")
        #expect(try lab.sync(phone, server).status == 0)
        #expect(try lab.sync(tablet, server).status == 0)
        server.stop()

        // The server is restored from its backup: what was pushed after it is on the devices only.
        try lab.copy(lab.path("server-backup.sqlite"), to: database)
        server = try await lab.serve(database)
        defer { server.stop() }
        let phoneSync = try lab.sync(phone, server)
        #expect(phoneSync.status == 0, "\(phoneSync.stderr)")
        #expect(phoneSync.stdout.contains("the server went back"), "\(phoneSync.stdout)")
        #expect(phoneSync.stdout.contains("verified"), "\(phoneSync.stdout)")
        let tabletSync = try lab.sync(tablet, server)
        #expect(tabletSync.status == 0 && tabletSync.stdout.contains("verified"), "\(tabletSync.stdout)")
        let verify = try lab.sync(tablet, server, ["--verify"])
        #expect(verify.status == 0 && verify.stdout.contains("In step"), "\(verify.stdout) \(verify.stderr)")
        server.stop()
        let everything = ["Has a cat named Miso", "Lives in Porto", "Plays the cello"]
        #expect(try lab.contents(database) == everything)
        #expect(try lab.states(phone) == lab.states(database))
        #expect(try lab.states(tablet) == lab.states(database))
        #expect(try lab.states(database).allSatisfy { $0.hasSuffix(" 1") }, "no mention counted twice")
    }

    @Test func verifyFindsADifferenceAndChangesNothing() async throws {
        let lab = try Lab()
        let server = try await lab.serve(lab.path("server.sqlite"))
        defer { server.stop() }
        let phone = lab.path("phone.sqlite")
        try lab.add(phone, "Lives in Porto")
        #expect(try lab.sync(phone, server).status == 0)
        #expect(try lab.sync(phone, server, ["--verify"]).status == 0)
        // A fact written behind sync's back (no outbox row): the replicas differ.
        try await DatabaseQueue(path: phone).write { db in
            try db.execute(sql: "UPDATE fact SET importance = 3 WHERE namespace = 'user-42'")
        }
        let before = try lab.states(phone)
        let verify = try lab.sync(phone, server, ["--verify", "--json"])
        #expect(verify.status == 3, "\(verify.stdout) \(verify.stderr)")
        let answer = try #require(try verify.json() as? [String: Any])
        #expect(answer["differing"] as? Int == 1, "\(verify.stdout)")
        #expect(try lab.states(phone) == before, "--verify changed nothing")

        let repaired = try lab.sync(phone, server)
        #expect(repaired.stdout.contains("repaired 1"), "\(repaired.stdout)")
        #expect(try lab.sync(phone, server, ["--verify"]).status == 0)
    }

    @Test func aFileHoldingFactsLinksWithoutDoublingMentions() async throws {
        let lab = try Lab()
        let database = lab.path("server.sqlite")
        // The same import on the server and on the phone before its first sync.
        try lab.add(database, "Lives in Porto", "Has a cat named Miso")
        let server = try await lab.serve(database)
        defer { server.stop() }
        let phone = lab.path("phone.sqlite")
        try lab.add(phone, "Lives in Porto", "Has a cat named Miso", "Plays the cello")
        let linked = try lab.sync(phone, server)
        #expect(linked.status == 0 && linked.stdout.contains("verified"), "\(linked.stdout) \(linked.stderr)")
        server.stop()
        #expect(try lab.contents(database) == ["Has a cat named Miso", "Lives in Porto", "Plays the cello"])
        let states = try lab.states(database)
        #expect(states.allSatisfy { $0.hasSuffix(" 1") }, "\(states)")
        #expect(try lab.states(phone) == lab.states(database))
    }

    /// The server's users deleted one fact and erased another; a phone that imported them all
    /// before its first sync links: neither comes back, on the server or on the phone, and the
    /// erased sentence is in no byte of either.
    @Test func aFileHoldingFactsTheServerDeletedOrErasedLinksWithoutBringingThemBack() async throws {
        let lab = try Lab()
        let database = lab.path("server.sqlite")
        let (deleted, erased) = ("Has a cat named Miso", "Takes lithium for bipolar disorder")
        try lab.add(database, "Lives in Porto", deleted, erased)
        let id = { (content: String) in
            try DatabaseQueue(path: database).read { db in
                try Int64.fetchOne(db, sql: "SELECT id FROM fact WHERE content = ?", arguments: [content])
            }
        }
        let write = { (arguments: [String]) in
            let result = try CLIRunner.run(arguments + ["--db", database, "--namespace", "user-42"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        try write(["fact", "delete", String(try #require(try id(deleted)))])
        try write(["fact", "erase", String(try #require(try id(erased)))])
        let server = try await lab.serve(database)
        defer { server.stop() }
        let phone = lab.path("phone.sqlite")
        try lab.add(phone, "Lives in Porto", deleted, erased, "Plays the cello")

        let linked = try lab.sync(phone, server)
        #expect(linked.status == 0 && linked.stdout.contains("verified"), "\(linked.stdout) \(linked.stderr)")
        server.stop()
        #expect(try lab.contents(database) == ["Lives in Porto", "Plays the cello"])
        #expect(try lab.contents(phone) == ["Lives in Porto", "Plays the cello"])
        #expect(try lab.states(phone) == lab.states(database))
        for file in [database, phone] {
            #expect(try FileTraces(databaseAt: file).found([erased]) == [], "\(file)")
        }

        // A new saying of the erased sentence after the link is the user's and is kept.
        let again = try await lab.serve(database)
        defer { again.stop() }
        try lab.add(phone, erased)
        #expect(try lab.sync(phone, again).status == 0)
        again.stop()
        #expect(try lab.contents(database).contains(erased))
    }

    @Test func aFactAddedOfflineUnderARenamedTopicLandsUnderTheNewName() async throws {
        let lab = try Lab()
        let server = try await lab.serve(lab.path("server.sqlite"))
        defer { server.stop() }
        let phone = lab.path("phone.sqlite")
        let tablet = lab.path("tablet.sqlite")
        try lab.add(phone, topic: "Pets", ["Has a cat named Miso"])
        #expect(try lab.sync(phone, server).status == 0)
        #expect(try lab.sync(tablet, server).status == 0)
        do {
            let kb = try KnowledgeBase(path: phone, namespace: "user-42")
            _ = try await kb.renameTopic(TopicPath(validating: "Pets"), to: "Animals")
        }
        #expect(try lab.sync(phone, server).status == 0)
        // The tablet, offline since before the rename, adds under the old path.
        try lab.add(tablet, topic: "Pets", ["Has a dog named Rex"])
        let pushed = try lab.sync(tablet, server)
        #expect(pushed.status == 0 && pushed.stdout.contains("verified"), "\(pushed.stdout) \(pushed.stderr)")
        #expect(try lab.sync(phone, server).status == 0)
        server.stop()
        for file in [lab.path("server.sqlite"), phone, tablet] {
            let topics = try await DatabaseQueue(path: file).read { db in
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT DISTINCT t.path FROM fact f JOIN topic t ON t.id = f.topic_id
                        WHERE f.namespace = 'user-42' ORDER BY 1
                        """)
            }
            #expect(topics == ["Animals"], "\(file): \(topics)")
        }
        #expect(try lab.states(phone) == lab.states(lab.path("server.sqlite")))
        #expect(try lab.states(tablet) == lab.states(lab.path("server.sqlite")))
    }

    @Test func failuresNameTheirClass() async throws {
        let lab = try Lab()
        let server = try await lab.serve(lab.path("server.sqlite"))
        defer { server.stop() }
        let phone = lab.path("phone.sqlite")
        try lab.add(phone, "Lives in Porto")

        try "tok-wrong\n".write(toFile: lab.path("bad-token"), atomically: true, encoding: .utf8)
        let unauthorized = try CLIRunner.run([
            "sync", "--server", "http://127.0.0.1:\(server.port)", "--token-file", lab.path("bad-token"), "--db", phone,
            "--namespace", "user-42", "--json",
        ])
        #expect(unauthorized.status == 10, "\(unauthorized.stdout) \(unauthorized.stderr)")
        let error = try #require((try unauthorized.json() as? [String: Any])?["error"] as? [String: Any])
        #expect(error["class"] as? String == "unauthorized")

        let forbidden = try CLIRunner.run([
            "sync", "--server", "http://127.0.0.1:\(server.port)", "--token-file", lab.token, "--db", phone,
            "--namespace", "someone-else",
        ])
        #expect(forbidden.status == 11, "\(forbidden.stderr)")

        // A listening socket that accepts connections and never answers.
        let silent = try SilentListener()
        defer { silent.close() }
        let timedOut = try lab.sync(phone, url: "http://127.0.0.1:\(silent.port)", ["--timeout", "1"])
        #expect(timedOut.status == 13, "\(timedOut.stderr)")
        #expect(timedOut.stderr.contains("did not answer within 1 s"), "\(timedOut.stderr)")

        let closed = silent.port
        silent.close()
        let unreachable = try lab.sync(phone, url: "http://127.0.0.1:\(closed)")
        #expect(unreachable.status == 12, "\(unreachable.stderr)")

        let status = try CLIRunner.run(["sync", "--status", "--db", phone, "--namespace", "user-42", "--json"])
        #expect(status.stdout.contains(#""waiting" : 1"#), "nothing was marked sent: \(status.stdout)")
        #expect(try lab.sync(phone, server).status == 0)
    }
}

/// A TCP socket on 127.0.0.1 that takes connections into its backlog and never reads or answers.
final class SilentListener: @unchecked Sendable {
    private var descriptor: Int32
    let port: Int

    init() throws {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else { throw ServerFailure("cannot listen: \(errno)") }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        guard descriptor >= 0 else { return }
        #if canImport(Glibc)
            Glibc.close(descriptor)
        #else
            Darwin.close(descriptor)
        #endif
        descriptor = -1
    }
}
