import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

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
