import Foundation
import Mnemo
import MnemoPostgres
import MnemoTestSupport
import PostgresNIO
import Testing

@Suite("Connecting to a store", .enabled(if: TestStore.isAvailable, TestStore.skipNote))
struct StoreSetupTests {
    @Test func tenNodesStartingTogetherCreateTheStoreOnce() async throws {
        let location = try await TestStore.freshDatabase()
        let nodes = try await withThrowingTaskGroup(of: PostgresMemory.self) { group in
            for _ in 0..<10 { group.addTask { try await TestStore.node(location: location) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(nodes.count == 10)
        let stores = try await TestStore.withConnection(location) { connection in
            var count = 0
            for try await value in try await connection.query(
                "SELECT count(*) FROM mnemo_meta WHERE key = 'store'", logger: TestStore.logger
            ).decode(Int.self) {
                count = value
            }
            return count
        }
        #expect(stores == 1)
        // All ten write to one namespace and see each other's facts.
        let namespace = TestStore.namespace()
        for (index, node) in nodes.enumerated() {
            try await node.knowledgeBase(namespace: namespace).addFact(
                NewFact(content: "Fact number \(index) from node \(index)", topicPath: "Nodes"))
        }
        for node in nodes {
            #expect(try await node.knowledgeBase(namespace: namespace).stats().facts == 10)
            await node.close()
        }
    }

    @Test func aWrongPasswordIsOneLine() async throws {
        var location = try TestStore.location
        location.password = "not-the-password"
        await #expect {
            try await TestStore.node(location: location)
        } throws: { error in
            let message = "\(error)"
            return message.contains("refused the login") && !message.contains("\n")
                && !message.contains("not-the-password")
        }
    }

    @Test func aMissingDatabaseIsOneLine() async throws {
        var location = try TestStore.location
        location.database = "no_such_database_here"
        await #expect {
            try await TestStore.node(location: location)
        } throws: { error in
            "\(error)".contains("\"no_such_database_here\" does not exist") && !"\(error)".contains("\n")
        }
    }

    @Test func aStoreOfAnotherSchemaVersionIsRefused() async throws {
        let location = try await TestStore.freshDatabase()
        try await TestStore.node(location: location).close()
        try await TestStore.withConnection(location) { connection in
            try await connection.query(
                "UPDATE mnemo_meta SET value = '99' WHERE key = 'schema'", logger: TestStore.logger)
        }
        await #expect {
            try await TestStore.node(location: location)
        } throws: { error in
            "\(error)".contains("schema version 99") && !"\(error)".contains("\n")
        }
    }

    @Test func aStoreOfAnotherChangeFormatIsRefused() async throws {
        let location = try await TestStore.freshDatabase()
        try await TestStore.node(location: location).close()
        try await TestStore.withConnection(location) { connection in
            try await connection.query(
                "UPDATE mnemo_meta SET value = '2' WHERE key = 'change_format'", logger: TestStore.logger)
        }
        await #expect {
            try await TestStore.node(location: location)
        } throws: { error in
            "\(error)".contains("change format 2, this mnemo reads format 1") && !"\(error)".contains("\n")
        }
    }

    @Test func aStoreFromBeforeTheChangeFormatWasRecordedIsInTheFirst() async throws {
        let location = try await TestStore.freshDatabase()
        try await TestStore.node(location: location).close()
        try await TestStore.withConnection(location) { connection in
            try await connection.query("DELETE FROM mnemo_meta WHERE key = 'change_format'", logger: TestStore.logger)
        }
        try await TestStore.node(location: location).close()
        let format = try await TestStore.withConnection(location) { connection in
            var values: [String] = []
            for try await value in try await connection.query(
                "SELECT value FROM mnemo_meta WHERE key = 'change_format'", logger: TestStore.logger
            ).decode(String.self) {
                values.append(value)
            }
            return values
        }
        #expect(format == ["1"])
    }

    @Test func nothingListensOnThePort() async throws {
        var location = try TestStore.location
        location.port = 1
        await #expect {
            try await TestStore.node(location: location)
        } throws: { error in
            guard case MnemoError.storageUnavailable = error else { return false }
            return !"\(error)".contains("\n")
        }
    }
}
