import Foundation
import MCP
import Mnemo

/// Runs the memory tools against a knowledge base and words their answers as JSON text.
struct MemoryToolHandler: Sendable {
    let knowledgeBase: KnowledgeBase

    /// Runs a tool. Mistakes the assistant can fix (bad arguments, an unknown id, a rejected
    /// fact) come back as an error result it can read, not as a protocol error.
    func call(_ name: String, arguments: [String: Value]?) async -> CallTool.Result {
        let arguments = ToolArguments(arguments)
        do {
            let answer: any Encodable = switch name {
            case MemoryTools.search: try await search(arguments)
            case MemoryTools.remember: try await remember(arguments)
            case MemoryTools.update: try await update(arguments)
            case MemoryTools.forget: try await forget(arguments)
            case MemoryTools.erase: try await erase(arguments)
            case MemoryTools.showTopic: try await showTopic(arguments)
            case MemoryTools.listTopics: try await knowledgeBase.topicTree().map(TopicOutline.init)
            case MemoryTools.stats: try await knowledgeBase.stats()
            default: throw ToolInputError("unknown tool \"\(name)\"; the tools are \(MemoryTools.all.map(\.name).joined(separator: ", "))")
            }
            return Self.answer(try Self.json(answer), isError: false)
        } catch let error as ToolInputError {
            return Self.answer(error.description, isError: true)
        } catch let error as MnemoError {
            return Self.answer(error.description, isError: true)
        } catch {
            return Self.answer("the memory failed: \(error)", isError: true)
        }
    }

    private static func answer(_ text: String, isError: Bool) -> CallTool.Result {
        .init(content: [.text(text: text, annotations: nil, _meta: nil)], isError: isError)
    }

    func topicTreeJSON() async throws -> String {
        try Self.json(try await knowledgeBase.topicTree().map(TopicOutline.init))
    }

    private func search(_ arguments: ToolArguments) async throws -> SearchAnswer {
        let text = try arguments.requiredString("query")
        let modeName = try arguments.string("mode") ?? "hybrid"
        guard let mode = SearchMode(rawValue: modeName) else {
            throw ToolInputError("unknown mode \"\(modeName)\" (expected hybrid, semantic or text)")
        }
        let types = try arguments.strings("types").map { names in
            Set(try names.map { name in
                guard let type = FactType(parsing: name) else { throw ToolInputError("unknown type \"\(name)\"") }
                return type
            })
        }
        let filter = FactFilter(
            types: types,
            importances: try arguments.strings("importance").map { Set(try $0.map(ToolArguments.importance)) },
            minimumImportance: try arguments.importance("min_importance"),
            topicPath: try arguments.string("topic").map { try TopicPath($0) },
            activity: try arguments.bool("include_inactive") == true ? .all : .activeOnly)
        let limit = try arguments.int("limit") ?? 10
        guard (1...50).contains(limit) else { throw ToolInputError("\"limit\" must be between 1 and 50") }
        let hits = try await knowledgeBase.search(SearchQuery(
            text, mode: mode, filter: filter, limit: limit, minSimilarity: try arguments.double("min_similarity")))
        return SearchAnswer(query: text, mode: mode.rawValue, results: hits.map(FactAnswer.init))
    }

    private func remember(_ arguments: ToolArguments) async throws -> RememberAnswer {
        var record = IngestRecord(content: try arguments.requiredString("content"))
        record.topic = try arguments.string("topic")
        record.type = try arguments.type("type")
        record.importance = try arguments.importance("importance")
        record.confidence = try arguments.double("confidence")
        record.sources = try arguments.string("source").map { [$0] } ?? []
        switch try await knowledgeBase.storeAllOrNothing([record]) {
        case let .rejected(rejections):
            throw ToolInputError("not remembered: \(rejections.map(\.reason).joined(separator: "; ")) [\(rejections[0].code.rawValue)]")
        case let .stored(stored):
            let message = switch stored[0].disposition {
            case .added: "Remembered as a new fact."
            case .merged: "Merged into a similar fact already remembered (id \(stored[0].fact.id))."
            case .unchanged: "Already remembered (id \(stored[0].fact.id)); its mention count went up."
            }
            return RememberAnswer(outcome: stored[0].disposition.rawValue, message: message, fact: FactAnswer(stored[0].fact))
        }
    }

    private func update(_ arguments: ToolArguments) async throws -> FactAnswer {
        let id = try arguments.factID()
        let update = FactUpdate(
            content: try arguments.string("content"), type: try arguments.type("type"),
            importance: try arguments.importance("importance"), confidence: try arguments.double("confidence"),
            topicPath: try arguments.string("topic").map { try TopicPath($0) })
        guard update != FactUpdate() else {
            throw ToolInputError("give at least one of content, topic, type, importance, confidence")
        }
        if let confidence = update.confidence, !(0...1).contains(confidence) {
            throw ToolInputError("\"confidence\" must be between 0 and 1")
        }
        return FactAnswer(try await knowledgeBase.updateFact(id: id, update))
    }

    private func forget(_ arguments: ToolArguments) async throws -> FactAnswer {
        FactAnswer(try await knowledgeBase.deactivateFact(id: try arguments.factID()))
    }

    /// Erases the facts named by id at once; by query, lists them first and erases them only
    /// with `confirm: true`.
    private func erase(_ arguments: ToolArguments) async throws -> any Encodable {
        let ids = try arguments.ids("ids")
        let query = try arguments.string("query")
        switch (ids, query) {
        case (nil, nil), (_?, _?):
            throw ToolInputError("give either \"ids\" (facts to erase) or \"query\" (to find them), not both")
        case let (ids?, nil):
            guard !ids.isEmpty else { throw ToolInputError("\"ids\" must name at least one fact") }
            return try await knowledgeBase.eraseFacts(ids: ids)
        case let (nil, query?):
            guard !query.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw ToolInputError("\"query\" must not be empty")
            }
            let limit = try arguments.int("limit") ?? 10
            guard (1...50).contains(limit) else { throw ToolInputError("\"limit\" must be between 1 and 50") }
            let hits = try await knowledgeBase.search(SearchQuery(query, filter: FactFilter(activity: .all), limit: limit))
            guard try arguments.bool("confirm") == true, !hits.isEmpty else {
                return ErasePreview(query: query, wouldErase: hits.map(FactAnswer.init), message: hits.isEmpty
                    ? "No fact matches; nothing was erased."
                    : "Nothing was erased yet. Show these facts to the user; to erase them for good, call forget again with the same query and \"confirm\": true, or with their ids.")
            }
            return try await knowledgeBase.eraseFacts(ids: hits.map(\.fact.id))
        }
    }

    private func showTopic(_ arguments: ToolArguments) async throws -> TopicAnswer {
        let path = try arguments.requiredString("path")
        let limit = try arguments.int("limit") ?? 50
        guard (1...200).contains(limit) else { throw ToolInputError("\"limit\" must be between 1 and 200") }
        guard let topic = try await knowledgeBase.topic(at: TopicPath(path)) else {
            throw ToolInputError("no topic at \"\(path)\"; list_topics shows the tree")
        }
        let children = try await knowledgeBase.children(of: TopicPath(topic.path))
        let facts = try await knowledgeBase.facts(matching: FactFilter(topicPath: TopicPath(topic.path)), limit: limit)
        return TopicAnswer(path: topic.path, subtopics: children.map(\.path), facts: facts.map(FactAnswer.init))
    }

    static func json(_ value: any Encodable) throws -> String {
        String(decoding: try JSONEncoder.mnemoOutput(pretty: true).encode(value), as: UTF8.self)
    }
}
