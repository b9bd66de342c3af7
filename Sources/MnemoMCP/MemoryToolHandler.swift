import Foundation
import MCP
import Mnemo

/// Runs the memory tools against a knowledge base and words their answers as JSON text.
struct MemoryToolHandler: Sendable {
    let knowledgeBase: KnowledgeBase

    /// Runs a tool. Mistakes the assistant can fix (bad arguments, an unknown id, a rejected
    /// fact) come back as an error result it can read, not as a protocol error.
    func call(_ name: String, arguments: [String: Value]?) async -> CallTool.Result {
        do {
            let arguments = try ToolArguments(arguments, declared: MemoryTools.argumentNames(of: name))
            let answer: any Encodable =
                switch name {
                case MemoryTools.search: try await search(arguments)
                case MemoryTools.context: try await context(arguments)
                case MemoryTools.remember: try await remember(arguments)
                case MemoryTools.update: try await update(arguments)
                case MemoryTools.forget: try await forget(arguments)
                case MemoryTools.erase: try await erase(arguments)
                case MemoryTools.showTopic: try await showTopic(arguments)
                case MemoryTools.listTopics: try await knowledgeBase.topicTree().map(TopicNodeJSON.init)
                case MemoryTools.stats: try await knowledgeBase.stats()
                default:
                    throw ToolInputError(
                        "unknown tool \"\(name)\"; the tools are \(MemoryTools.all.map(\.name).joined(separator: ", "))"
                    )
                }
            return Self.answer(try Self.json(answer), isError: false)
        } catch let error as ToolInputError {
            return Self.answer(error.description, isError: true)
        } catch let error as FilterValueError {
            return Self.answer(error.message, isError: true)
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
        try Self.json(try await knowledgeBase.topicTree().map(TopicNodeJSON.init))
    }

    private func search(_ arguments: ToolArguments) async throws -> SearchResultsJSON {
        let text = try arguments.requiredString("query")
        var parameters = SearchParameters(maximumLimit: MemoryTools.maximumSearchLimit)
        try parameters.set(.mode, to: try arguments.strings("mode") ?? [])
        try parameters.set(.type, to: try arguments.strings("types") ?? [])
        try parameters.set(.importance, to: try arguments.strings("importance") ?? [])
        try parameters.set(.minImportance, to: try arguments.strings("min_importance") ?? [])
        try parameters.set(.status, to: try arguments.strings("status") ?? [])
        try parameters.set(.topic, to: try arguments.strings("topic") ?? [])
        if let limit = try arguments.int("limit") { try parameters.setLimit(limit) }
        if let minimum = try arguments.double("min_similarity") { try parameters.setMinSimilarity(minimum) }
        if let include = try arguments.bool("include_inactive") { parameters.setIncludeInactive(include) }
        try parameters.set(.since, to: try arguments.strings("since") ?? [])
        try parameters.set(.until, to: try arguments.strings("until") ?? [])
        let query = parameters.searchQuery(text, defaultMode: .hybrid, defaultLimit: 10, now: knowledgeBase.now)
        return SearchResultsJSON(query: text, mode: query.mode ?? .hybrid, hits: try await knowledgeBase.search(query))
    }

    private func context(_ arguments: ToolArguments) async throws -> MemoryContextJSON {
        let message = try arguments.requiredString("message")
        var parameters = SearchParameters()
        try parameters.set(.since, to: try arguments.strings("since") ?? [])
        try parameters.set(.until, to: try arguments.strings("until") ?? [])
        try parameters.set(.topic, to: try arguments.strings("topic") ?? [])
        let budget = try ContextBudget.checked(try arguments.int("budget") ?? ContextBudget.default)
        return MemoryContextJSON(
            try await knowledgeBase.context(
                for: message, budget: budget, options: ContextOptions(filter: parameters.filter(now: knowledgeBase.now))
            ))
    }

    /// The `memory_context` prompt: the context for `message` as one user message.
    func prompt(_ name: String, arguments: [String: String]?) async throws -> GetPrompt.Result {
        guard name == MemoryPrompts.context else {
            throw MCPError.invalidParams("unknown prompt \(name); the memory offers \(MemoryPrompts.context)")
        }
        guard let message = arguments?["message"], !message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        else {
            throw MCPError.invalidParams("the memory_context prompt needs a \"message\"")
        }
        var budget = ContextBudget.default
        if let text = arguments?["budget"] {
            do {
                budget = try ContextBudget.parse(text)
            } catch {
                throw MCPError.invalidParams(error.message)
            }
        }
        let context = try await knowledgeBase.context(for: message, budget: budget)
        let text =
            context.text.isEmpty
            ? "The memory holds nothing about the user for this message."
            : "What you remember about the user that may matter for this message (each fact with the date it was stated):\n\n"
                + context.text
        return .init(description: "Memory for: \(message)", messages: [.user(.text(text: text))])
    }

    private func remember(_ arguments: ToolArguments) async throws -> RememberAnswer {
        var record = IngestRecord(content: try arguments.requiredString("content"))
        record.topic = try arguments.string("topic")
        record.type = try arguments.string("type").map(FactType.named)
        record.importance = try arguments.string("importance").map(Importance.named)
        record.confidence = try arguments.double("confidence")
        record.sources = try arguments.string("source").map { [$0] } ?? []
        switch try await knowledgeBase.storeAllOrNothing([record]) {
        case .rejected(let rejections) where rejections[0].code == .quotaExceeded:
            throw ToolInputError(
                "not remembered: the memory is full (\(rejections[0].reason)). Ask the user which remembered facts to forget, then try again [quota_exceeded]"
            )
        case .rejected(let rejections):
            throw ToolInputError(
                "not remembered: \(rejections.map(\.reason).joined(separator: "; ")) [\(rejections[0].code.rawValue)]")
        case .stored(let stored, let evicted):
            var message =
                switch stored[0].disposition {
                case .added: "Remembered as a new fact."
                case .merged: "Merged into a similar fact already remembered (id \(stored[0].fact.id))."
                case .unchanged: "Already remembered (id \(stored[0].fact.id)); its mention count went up."
                }
            if !evicted.isEmpty {
                message +=
                    " The memory was full: to make room, it deleted "
                    + evicted.map { "#\($0.id) \"\($0.content)\"" }.joined(separator: ", ") + "."
            }
            return RememberAnswer(
                outcome: stored[0].disposition.rawValue, message: message, fact: FactJSON(stored[0].fact),
                evicted: evicted.isEmpty ? nil : evicted.map(FactJSON.init))
        }
    }

    private func update(_ arguments: ToolArguments) async throws -> FactJSON {
        let id = try arguments.factID()
        var edit = FactEdit()
        if let content = try arguments.string("content") { try edit.setContent(content) }
        if let type = try arguments.string("type") { try edit.setType(type) }
        if let importance = try arguments.string("importance") { try edit.setImportance(importance) }
        if let confidence = try arguments.double("confidence") { try edit.setConfidence(confidence) }
        if let topic = try arguments.string("topic") { try edit.setTopic(topic) }
        if let status = try arguments.string("status") { try edit.setStatus(status) }
        if let progress = try arguments.double("progress") { try edit.setProgress(progress) }
        if let targetDate = try arguments.string("target_date") { try edit.setTargetDate(targetDate) }
        try edit.requireChange(
            fields: FactEdit.fields.filter { (MemoryTools.argumentNames(of: MemoryTools.update) ?? []).contains($0) })
        return FactJSON(try await knowledgeBase.updateFact(id: id, edit.update))
    }

    private func forget(_ arguments: ToolArguments) async throws -> FactJSON {
        FactJSON(try await knowledgeBase.deactivateFact(id: try arguments.factID()))
    }

    /// Erases the facts named by id at once; by query, lists them first and erases them only
    /// with `confirm: true`.
    private func erase(_ arguments: ToolArguments) async throws -> any Encodable {
        let ids = try arguments.ids("ids")
        let query = try arguments.string("query")
        switch (ids, query) {
        case (nil, nil), (_?, _?):
            throw ToolInputError("give either \"ids\" (facts to erase) or \"query\" (to find them), not both")
        case (let ids?, nil):
            guard !ids.isEmpty else { throw ToolInputError("\"ids\" must name at least one fact") }
            return try await knowledgeBase.eraseFacts(ids: ids)
        case (nil, let query?):
            guard !query.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw ToolInputError("\"query\" must not be empty")
            }
            let limit = try arguments.int("limit") ?? 10
            guard (1...50).contains(limit) else { throw ToolInputError("\"limit\" must be between 1 and 50") }
            let hits = try await knowledgeBase.search(
                SearchQuery(query, filter: FactFilter(activity: .all), limit: limit))
            guard try arguments.bool("confirm") == true, !hits.isEmpty else {
                return ErasePreview(
                    query: query, wouldErase: hits.map(SearchHitJSON.init),
                    message: hits.isEmpty
                        ? "No fact matches; nothing was erased."
                        : "Nothing was erased yet. Show these facts to the user; to erase them for good, call forget again with the same query and \"confirm\": true, or with their ids."
                )
            }
            return try await knowledgeBase.eraseFacts(ids: hits.map(\.fact.id))
        }
    }

    private func showTopic(_ arguments: ToolArguments) async throws -> TopicDetailJSON {
        let path = try arguments.requiredString("path")
        let limit = try arguments.int("limit") ?? 50
        guard (1...200).contains(limit) else { throw ToolInputError("\"limit\" must be between 1 and 200") }
        do {
            let detail = try await knowledgeBase.topicDetail(at: TopicPath(path), limit: limit)
            return TopicDetailJSON(detail.node, facts: detail.facts)
        } catch MnemoError.notFound(.topic) {
            throw ToolInputError("no topic at \"\(path)\"; list_topics shows the tree")
        }
    }

    static func json(_ value: any Encodable) throws -> String {
        String(decoding: try JSONEncoder.mnemoOutput(pretty: true).encode(value), as: UTF8.self)
    }
}
