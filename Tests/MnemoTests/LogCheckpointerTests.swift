import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

/// The writer's checkpoints run on a queue of their own, and the log still starts over, stops
/// growing at its limit and is folded into the file at the end.
@Suite struct LogCheckpointerTests {
    /// A commit of more than 1,000 pages leaves the checkpoint to the queue (SQLite's own would
    /// have copied the log in the commit), which copies it; the next write starts the log over.
    @Test func theCommitLeavesTheCheckpointToTheQueue() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let pool = try Self.pool(at: path)
        try await pool.writeWithoutTransaction { db in
            try LogCheckpointer.pausing(db) {
                try Self.commitPages(db, 1_500)
                let log = try Self.logState(path)
                #expect(log.frames >= 1_500)
                #expect(log.copied == 0)
            }
        }
        try await Self.waitUntil {
            let log = try Self.logState(path)
            return log.copied == log.frames
        }
        try await pool.write { db in try db.execute(sql: "INSERT INTO t VALUES (x'00')") }
        #expect(try Self.logState(path).frames < 10)
    }

    /// While the queue cannot run, the commit that takes the log to its limit checkpoints it on
    /// the writer's thread, so that it cannot grow for ever.
    @Test func theLogStopsGrowingAtItsLimit() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let pool = try Self.pool(at: path, logLimit: 2_000)
        try await pool.writeWithoutTransaction { db in
            try LogCheckpointer.pausing(db) {
                try Self.commitPages(db, 1_200)
                #expect(try Self.logState(path).copied == 0)
                try Self.commitPages(db, 1_200)
                let log = try Self.logState(path)
                #expect(log.frames >= 2_400)
                #expect(log.copied == log.frames)
            }
        }
        try await pool.write { db in try db.execute(sql: "INSERT INTO t VALUES (x'00')") }
        #expect(try Self.logState(path).frames < 10)
    }

    /// A knowledge base released just after a large write leaves no log behind: its release waits
    /// for the queue's checkpoint, whose connection then folds the log into the file.
    @Test func theLogIsFoldedIntoTheFileWhenTheKnowledgeBaseIsGone() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        do {
            let kb = try KnowledgeBase(path: path, embedder: HashingEmbedder())
            let facts = (0..<2_000).map { NewFact(content: "Fact number \($0) about the garden", topicPath: "Garden") }
            try await kb.addFacts(facts, nearDuplicates: nil)
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        }
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let reopened = try KnowledgeBase(path: path, embedder: HashingEmbedder())
        #expect(try await reopened.stats().facts == 2_000)
    }

    /// An erasure truncates the log even when the queue has a checkpoint to run.
    @Test func anErasureTruncatesTheLog() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let kb = try KnowledgeBase(path: path, embedder: HashingEmbedder())
        let facts = (0..<2_000).map { NewFact(content: "Fact number \($0) about the garden", topicPath: "Garden") }
        let ids = try await kb.addFacts(facts, nearDuplicates: nil).map(\.id)
        let receipt = try await kb.eraseFacts(ids: Array(ids.prefix(10)))
        #expect(receipt.walTruncated)
    }

    /// A pool whose writer has a checkpointer, as `DatabaseFactory.openPool` gives one, with a
    /// table `t` to write to.
    private static func pool(
        at path: String, logLimit: Int32 = LogCheckpointer.defaultLogLimit
    ) throws -> DatabasePool {
        var configuration = Configuration()
        let checkpointer = LogCheckpointer(path: path, configuration: configuration, logLimit: logLimit)
        configuration.prepareDatabase { db in
            if !db.configuration.readonly { checkpointer.attach(to: db) }
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.write { db in try db.execute(sql: "CREATE TABLE t (x BLOB)") }
        return pool
    }

    /// Commits a transaction of about `pages` pages of 4 KiB.
    private static func commitPages(_ db: Database, _ pages: Int) throws {
        try db.inTransaction {
            try db.execute(
                sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                    INSERT INTO t SELECT randomblob(4000) FROM n
                    """, arguments: [pages])
            return .commit
        }
    }

    /// The log's committed frames and how many of them the file holds, read from the header of
    /// the log's index, the `-shm` file (SQLite's file format, "WAL-Index Format"): `mxFrame` at
    /// byte 16 and `nBackfill` at byte 96, in the machine's byte order.
    private static func logState(_ path: String) throws -> (frames: UInt32, copied: UInt32) {
        let header = try Data(contentsOf: URL(fileURLWithPath: path + "-shm")).prefix(100)
        func word(at offset: Int) -> UInt32 {
            header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
        }
        return (word(at: 16), word(at: 96))
    }

    private static func waitUntil(_ condition: () throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while try !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("the queue did not checkpoint the log within 20 s")
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
