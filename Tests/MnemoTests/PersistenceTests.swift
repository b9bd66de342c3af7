import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

#if canImport(GRDBSQLite)
    import GRDBSQLite
#elseif canImport(SQLite3)
    import SQLite3
#endif

@Suite("Persistence and concurrency")
struct PersistenceTests {
    @Test func reopeningTheFileKeepsEverything() async throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let factID: Int64
        do {
            let kb = try KnowledgeBase(path: path, namespace: "user-1")
            factID = try await kb.addFact(
                NewFact(
                    content: "Speaks Portuguese and English", topicPath: "Languages",
                    type: .fact, importance: .high, sources: ["conv-9"])
            ).id
            try await kb.updateFact(id: factID, FactUpdate(confidence: 0.8))
            try await kb.createTopic("Languages/Japanese")
        }
        let reopened = try KnowledgeBase(path: path, namespace: "user-1")
        let fact = try #require(try await reopened.fact(id: factID))
        #expect(fact.content == "Speaks Portuguese and English")
        #expect(fact.confidence == 0.8)
        #expect(fact.sources == ["conv-9"])
        #expect(try await reopened.search("portuguese").map(\.fact.id) == [factID])
        #expect(try await reopened.history(ofFact: factID).map(\.kind) == [.added, .updated])
        #expect(try await reopened.subtree(of: "languages").count == 2)
    }

    /// A search's read runs in a transaction whose `BEGIN` and `COMMIT` stay prepared on the
    /// connection for the next read, instead of being prepared for each.
    @Test func readsOnTheCallingThreadKeepTheirTransactionPrepared() async throws {
        let kb = try KnowledgeBase(path: try TestKnowledgeBase.temporaryPath())
        try await kb.addFact(NewFact(content: "Plays the cello", topicPath: "Music"))
        _ = try kb.readNow { db in try FactTable.facts(db, namespace: kb.namespace, ids: [1]) }
        let (isInTransaction, prepared) = try kb.readNow { db in
            (db.isInsideTransaction, Self.preparedStatements(db))
        }
        #expect(isInTransaction)
        #expect(prepared.contains("BEGIN DEFERRED TRANSACTION"), "\(prepared)")
        #expect(prepared.contains("COMMIT TRANSACTION"), "\(prepared)")
    }

    /// The SQL of every statement prepared and not yet finalized on `db`'s connection.
    static func preparedStatements(_ db: Database) -> Set<String> {
        var statements: Set<String> = []
        var statement = sqlite3_next_stmt(db.sqliteConnection, nil)
        while let current = statement {
            if let sql = sqlite3_sql(current) { statements.insert(String(cString: sql)) }
            statement = sqlite3_next_stmt(db.sqliteConnection, current)
        }
        return statements
    }

    @Test func oneInstanceServesManyTasks() async throws {
        let kb = try KnowledgeBase(path: try TestKnowledgeBase.temporaryPath())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<25 {
                        try await kb.addFact(
                            NewFact(content: "Task \(task) note \(index)", topicPath: TopicPath("Load/T\(task)")))
                        _ = try await kb.search("note")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await kb.stats().facts == 200)
        #expect(try await kb.search(SearchQuery("note", mode: .text, limit: 500)).count == 200)
    }
}
