import Foundation

@testable import Mnemo

/// The fixture knowledge base (`Fixtures/knowledge.jsonl`) and its retrieval queries.
enum FixtureKnowledgeBase {
    struct Line: Decodable {
        var topic: String
        var content: String
        var type: FactType
        var importance: Importance
        var confidence: Double
        var source: String
        var createdAt: String
    }

    struct Query: Decodable {
        var query: String
        var expected: [String]
    }

    struct Queries: Decodable {
        var keyword: [Query]
        var paraphrase: [Query]
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    /// The facts of `knowledge.jsonl`, in file order.
    static func facts() throws -> [NewFact] {
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

    static func queries() throws -> Queries {
        try decoder.decode(
            Queries.self, from: Data(contentsOf: ModelFixture.fixtures.appendingPathComponent("queries.json")))
    }

    /// An in-memory knowledge base holding the fixture facts, embedded with `embedder`.
    static func load(embedder: (any Embedder)?) async throws -> KnowledgeBase {
        let kb = try KnowledgeBase.inMemory(embedder: embedder)
        try await kb.addFacts(facts())
        return kb
    }
}
