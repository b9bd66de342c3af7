import Foundation
import Mnemo
import MnemoTestSupport
import Testing

/// One database file open in this process and in `mnemo` processes that come and go, as an app
/// and its command line share a file: what one commits, the others read.
@Suite struct SharedFileTests {
    /// SQLite keeps its locks on the file per process: if opening a second knowledge base on the
    /// file dropped the first one's locks, a `mnemo` process closing the file would believe it
    /// was the last, checkpoint and delete the `-wal` file this process still commits to, and
    /// the commits after that would reach no other process.
    @Test func aProcessThatComesAndGoesLeavesTheLogOfInstancesStillOpen() async throws {
        let database = try TestKnowledgeBase.temporaryPath()
        let first = try KnowledgeBase(path: database)
        try await first.addFact(NewFact(content: "Keeps bees on the roof", topicPath: "Hobbies"))
        let second = try KnowledgeBase(path: database)
        #expect(try await second.stats().facts == 1)

        let stats = try await ThreadJob { try CLIRunner.run(["stats", "--db", database]) }.value
        #expect(stats.status == 0, "\(stats.stderr)")
        try await first.addFact(NewFact(content: "Plays the cello in an orchestra", topicPath: "Hobbies"))
        #expect(FileManager.default.fileExists(atPath: database + "-wal"))

        let search = try await ThreadJob {
            try CLIRunner.run(["search", "cello", "--db", database, "--mode", "text"])
        }.value
        #expect(search.status == 0, "\(search.stderr)")
        #expect(search.stdout.contains("Plays the cello"), "\(search.stdout)")
        let check = try await ThreadJob { try CLIRunner.run(["check", "--db", database]) }.value
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }
}
