import Foundation
import Mnemo

/// The fixture knowledge base (`Fixtures/knowledge.jsonl`) and its retrieval queries.
package enum FixtureKnowledgeBase {
    package struct Line: Decodable {
        package var topic: String
        package var content: String
        package var type: FactType
        package var importance: Importance
        package var confidence: Double
        package var source: String
        package var createdAt: String
    }

    package struct Query: Decodable {
        package var query: String
        package var expected: [String]
    }

    package struct Queries: Decodable {
        package var keyword: [Query]
        package var paraphrase: [Query]
    }

    package static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    /// The facts of `knowledge.jsonl`, in file order.
    package static func facts() throws -> [NewFact] {
        let text = try String(
            contentsOf: ModelFixture.fixtures.appendingPathComponent("knowledge.jsonl"), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let record = try decoder.decode(Line.self, from: Data(line.utf8))
            return NewFact(
                content: record.content, topicPath: try TopicPath(record.topic), type: record.type,
                importance: record.importance, confidence: record.confidence,
                sources: [record.source], createdAt: Timestamp.parse(record.createdAt))
        }
    }

    package static func queries() throws -> Queries {
        try decoder.decode(
            Queries.self, from: Data(contentsOf: ModelFixture.fixtures.appendingPathComponent("queries.json")))
    }

    /// An in-memory knowledge base holding the fixture facts, embedded with `embedder`.
    package static func load(embedder: (any Embedder)?) async throws -> KnowledgeBase {
        let kb = try KnowledgeBase.inMemory(embedder: embedder)
        try await kb.addFacts(facts())
        return kb
    }
}
