import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

@Suite("Reads on connections of their own")
struct DirectReadersTests {
    @Test func readsOnTheCallingThreadUseTheirOwnConnectionsAndSeeEveryCommit() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let kb = try KnowledgeBase(path: path, namespace: "alice")
        let readers = try #require(kb.writer.directReaders)
        _ = try await kb.addFact(NewFact(content: "Plays the cello", topicPath: "Music"))
        let first = try #require(try readers.read(noting: nil) { db in ObjectIdentifier(db) })
        // Another process's commit, through a connection of its own.
        let other = try DatabaseQueue(path: path)
        try await other.write { db in try db.execute(sql: "UPDATE fact SET content = 'Plays the viola'") }
        #expect(try kb.readNow { db in try String.fetchOne(db, sql: "SELECT content FROM fact") } == "Plays the viola")
        #expect(try readers.read(noting: nil) { db in ObjectIdentifier(db) } == first)
        #expect(try await kb.search("viola", mode: .text).map(\.fact.content) == ["Plays the viola"])
    }

    @Test func aReadThatFindsEveryConnectionLentGoesToThePool() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let pool = try DatabasePool(path: path)
        try await pool.write { db in try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (7)") }
        let readers = DirectReaders(pool: pool, maximumCount: 1)
        let inner = try readers.read(noting: nil) { _ in try readers.read(noting: nil) { _ in 1 } }
        #expect(inner == .some(nil))
        #expect(try readers.read(noting: nil) { db in try Int.fetchOne(db, sql: "SELECT x FROM t") } == 7)
    }

    /// GRDB caches a table's columns per connection; a pool's reader forgets them when the schema
    /// changed, and so do these connections.
    @Test func aSchemaChangedByAnotherConnectionIsSeen() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let pool = try DatabasePool(path: path)
        try await pool.write { db in try db.execute(sql: "CREATE TABLE t(x)") }
        let readers = DirectReaders(pool: pool, maximumCount: 1)
        #expect(try readers.read(noting: nil) { db in try db.columns(in: "t").map(\.name) } == ["x"])
        try await pool.write { db in try db.execute(sql: "ALTER TABLE t ADD COLUMN y") }
        #expect(try readers.read(noting: nil) { db in try db.columns(in: "t").map(\.name) } == ["x", "y"])
    }

    /// The last connection to close checkpoints the log into the file and deletes it, so that
    /// the file alone holds everything once the knowledge base is gone.
    @Test func theLogIsFoldedIntoTheFileWhenTheKnowledgeBaseIsGone() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        do {
            let kb = try KnowledgeBase(path: path, namespace: "alice")
            _ = try await kb.addFact(NewFact(content: "Plays the cello", topicPath: "Music"))
            #expect(try await kb.search("cello", mode: .text).count == 1)
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let copy = try TestKnowledgeBase.temporaryPath()
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let reopened = try KnowledgeBase(path: copy, namespace: "alice")
        #expect(try await reopened.search("cello", mode: .text).count == 1)
    }
}
