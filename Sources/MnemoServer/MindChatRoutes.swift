import Foundation
import Hummingbird
import Mnemo

/// MindChat's knowledge-base API (`/api`): the topic tree, topics, search, stats, merge and
/// fact edits. The user is the token's.
struct MindChatRoutes {
    let tenancy: Tenancy
    let configuration: ServerConfiguration

    func add(to router: Router<MnemoRequestContext>) {
        let api = router.group("api")
        api.get("topics", use: tree)
        api.get("topics/lookup", use: lookup)
        api.get("topics/search", use: search)
        api.get("topics/stats", use: stats)
        api.post("topics/merge", use: merge)
        api.get("topics/:topic_id", use: topic)
        api.patch("facts/:fact_id", use: updateFact)
        api.delete("facts/:fact_id", use: deleteFact)
        api.delete("knowledge", use: eraseKnowledge)
    }

    /// `GET /api/topics`: the whole tree with fact counts.
    @Sendable func tree(_ request: Request, context: MnemoRequestContext) async throws -> EditedResponse<
        [TopicNodeJSON]
    > {
        let kb = try await tenancy.knowledgeBase(context)
        return try await reflectingCursor(of: kb) { try await kb.topicTree().map(TopicNodeJSON.init) }
    }

    /// `GET /api/topics/{id}`
    @Sendable func topic(_ request: Request, context: MnemoRequestContext) async throws -> EditedResponse<
        TopicDetailJSON
    > {
        let kb = try await tenancy.knowledgeBase(context)
        let text = context.parameters.get("topic_id") ?? ""
        let page = try detailPage(request)
        return try await reflectingCursor(of: kb) {
            guard let id = Int64(text),
                let detail = try await kb.topicDetail(id: id, activity: page.filter.activity, limit: page.limit ?? 100)
            else {
                throw APIError.notFound("no topic with id \(text)")
            }
            return TopicDetailJSON(detail.node, facts: detail.facts)
        }
    }

    /// `GET /api/topics/lookup?path=Technology/iOS Development`
    @Sendable func lookup(_ request: Request, context: MnemoRequestContext) async throws -> EditedResponse<
        TopicDetailJSON
    > {
        let kb = try await tenancy.knowledgeBase(context)
        guard let path = QueryFields(request).get("path") else {
            throw APIError.badRequest(
                "missing_path", "give the topic's path: /api/topics/lookup?path=Technology/iOS%20Development")
        }
        let page = try detailPage(request)
        return try await reflectingCursor(of: kb) {
            let detail = try await kb.topicDetail(
                at: TopicPath(path), activity: page.filter.activity, limit: page.limit ?? 100)
            return TopicDetailJSON(detail.node, facts: detail.facts)
        }
    }

    /// `GET /api/topics/search?q=…&type=…&importance=…&status=…&mode=…&limit=…&since=…&until=…`
    @Sendable func search(_ request: Request, context: MnemoRequestContext) async throws -> EditedResponse<
        SearchResultsJSON
    > {
        let kb = try await tenancy.knowledgeBase(context)
        let query = QueryFields(request)
        guard let text = query.get("q"), !text.trimmingBlanks.isEmpty else {
            throw APIError.badRequest("missing_query", "give the search text: /api/topics/search?q=swiftui")
        }
        let fields: [FilterField] = [
            .type, .importance, .minImportance, .status, .topic, .includeInactive, .mode, .limit, .offset,
            .minSimilarity, .since, .until,
        ]
        let search = try query.parameters(fields, maximumLimit: configuration.maximumPageSize)
            .searchQuery(text, defaultMode: .hybrid, defaultLimit: 20, now: kb.now)
        return try await reflectingCursor(of: kb) {
            SearchResultsJSON(query: text, mode: search.mode ?? .hybrid, hits: try await kb.search(search))
        }
    }

    /// `GET /api/topics/stats`
    @Sendable func stats(_ request: Request, context: MnemoRequestContext) async throws -> EditedResponse<
        KnowledgeBaseStats
    > {
        let kb = try await tenancy.knowledgeBase(context)
        return try await reflectingCursor(of: kb) { try await kb.stats() }
    }

    /// `POST /api/topics/merge` with `{"sources": [path or id, …], "target": path or id, "dry_run": false}`.
    @Sendable func merge(_ request: Request, context: MnemoRequestContext) async throws -> TopicMergeReport {
        let body = try await request.decode(as: MergeRequest.self, context: context)
        let kb = try await tenancy.knowledgeBase(context)
        let tree = try await kb.topicTree()
        guard let sourceReferences = body.sources, !sourceReferences.isEmpty else {
            throw APIError.badRequest("wrong_field_type", "\"sources\" must be a non-empty array of topic paths or ids")
        }
        guard let targetReference = body.target ?? body.into else {
            throw APIError.badRequest(
                "wrong_field_type", "\"target\" must name the topic that receives the others (a path or an id)")
        }
        let sources = try sourceReferences.map { try $0.path(in: tree) }
        return try await kb.mergeTopics(sources, into: try targetReference.path(in: tree), dryRun: body.dryRun ?? false)
    }

    /// `PATCH /api/facts/{id}` with any of `content`, `type`, `importance`, `confidence`, `topic`, `is_active`.
    @Sendable func updateFact(_ request: Request, context: MnemoRequestContext) async throws -> FactJSON {
        let id = try FactPath.id(context)
        let edit = try await request.decode(as: FactEditRequest.self, context: context).edit()
        let kb = try await tenancy.knowledgeBase(context)
        return FactJSON(try await kb.updateFact(id: id, edit.update, isActive: edit.isActive))
    }

    /// `DELETE /api/facts/{id}`: deletes (hidden, kept in the history, undoable); 204 No Content.
    /// With `?erase=true`, erases for good instead and answers the ``ErasureReceipt``.
    @Sendable func deleteFact(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let id = try FactPath.id(context)
        let kb = try await tenancy.knowledgeBase(context)
        if try QueryFields(request).boolean("erase") == true {
            return try await kb.eraseFacts(ids: [id]).response(from: request, context: context)
        }
        try await kb.deleteFact(id: id)
        return Response(status: .noContent)
    }

    /// `DELETE /api/knowledge`: erases the caller's whole knowledge base for good and answers
    /// the ``ErasureReceipt``.
    @Sendable func eraseKnowledge(_ request: Request, context: MnemoRequestContext) async throws -> ErasureReceipt {
        try await tenancy.knowledgeBase(context).eraseNamespace()
    }

    /// The page of a topic's facts: `include_inactive`, `limit` and `status`.
    private func detailPage(_ request: Request) throws -> SearchParameters {
        try QueryFields(request).parameters(
            [.includeInactive, .limit, .status], maximumLimit: configuration.maximumPageSize)
    }
}
