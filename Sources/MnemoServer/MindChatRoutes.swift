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
    @Sendable func tree(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let kb = try tenancy.knowledgeBase(context)
        return try JSONResponse.make(try await kb.topicTree().map(TopicTreeBody.init))
    }

    /// `GET /api/topics/{id}`
    @Sendable func topic(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let kb = try tenancy.knowledgeBase(context)
        let text = context.parameters.get("topic_id") ?? ""
        guard let id = Int64(text), let node = try await kb.topicTree().node(id: id) else {
            throw APIError.notFound("no topic with id \(text)")
        }
        return try await detail(node, kb: kb, request: request)
    }

    /// `GET /api/topics/lookup?path=Technology/iOS Development`
    @Sendable func lookup(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let kb = try tenancy.knowledgeBase(context)
        guard let path = request.uri.queryParameters.get("path"), !path.isEmpty else {
            throw APIError.badRequest("missing_path", "give the topic's path: /api/topics/lookup?path=Technology/iOS%20Development")
        }
        guard let topic = try await kb.topic(at: TopicPath(path)), let node = try await kb.topicTree().node(id: topic.id) else {
            throw MnemoError.notFound(.topic(path))
        }
        return try await detail(node, kb: kb, request: request)
    }

    /// `GET /api/topics/search?q=…&type=…&importance=…&mode=…&limit=…`
    @Sendable func search(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let kb = try tenancy.knowledgeBase(context)
        let query = request.uri.queryParameters
        guard let text = query.get("q"), !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw APIError.badRequest("missing_query", "give the search text: /api/topics/search?q=swiftui")
        }
        let filter = FactFilter(
            types: try RequestValues.types(query.getAll("type").map { String($0) }.nonEmpty),
            importances: try RequestValues.importances(query.getAll("importance").map { String($0) }.nonEmpty),
            minimumImportance: try query.get("min_importance").map(RequestValues.importance),
            topicPath: try query.get("topic").map { try TopicPath($0) },
            activity: try RequestValues.boolean(query.get("include_inactive"), name: "include_inactive") == true ? .all : .activeOnly)
        let search = SearchQuery(
            text, mode: try RequestValues.mode(query.get("mode"), default: .hybrid), filter: filter,
            limit: try RequestValues.limit(RequestValues.integer(query.get("limit"), name: "limit"),
                                           default: 20, maximum: configuration.maximumPageSize),
            offset: try RequestValues.offset(RequestValues.integer(query.get("offset"), name: "offset")),
            minSimilarity: try RequestValues.minSimilarity(query.get("min_similarity").map { text in
                guard let value = Double(text) else {
                    throw APIError.badRequest("invalid_parameter", "\"min_similarity\" must be a number, not \"\(text)\"")
                }
                return value
            }))
        let hits = try await kb.search(search)
        return try JSONResponse.make(SearchBody(query: text, mode: (search.mode ?? .hybrid).rawValue, results: hits.map(SearchResultBody.init)))
    }

    /// `GET /api/topics/stats`
    @Sendable func stats(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let kb = try tenancy.knowledgeBase(context)
        return try JSONResponse.make(try await kb.stats())
    }

    /// `POST /api/topics/merge` with `{"sources": [path or id, …], "target": path or id, "dry_run": false}`.
    @Sendable func merge(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let body = try await JSONBody.read(request, limit: configuration.maximumBodySize)
        let kb = try tenancy.knowledgeBase(context)
        let tree = try await kb.topicTree()
        guard let sourceValues = body.value("sources") as? [Any], !sourceValues.isEmpty else {
            throw APIError.badRequest("wrong_field_type", "\"sources\" must be a non-empty array of topic paths or ids")
        }
        let sources = try sourceValues.map { try Self.topicPath($0, field: "sources", in: tree) }
        guard let targetValue = body.value("target") ?? body.value("into") else {
            throw APIError.badRequest("wrong_field_type", "\"target\" must name the topic that receives the others (a path or an id)")
        }
        let target = try Self.topicPath(targetValue, field: "target", in: tree)
        let report = try await kb.mergeTopics(sources.map { try TopicPath($0) }, into: TopicPath(target), dryRun: try body.bool("dry_run") ?? false)
        return try JSONResponse.make(report)
    }

    /// `PATCH /api/facts/{id}` with any of `content`, `type`, `importance`, `confidence`, `topic`, `is_active`.
    @Sendable func updateFact(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let id = try RequestValues.factID(context.parameters.get("fact_id"))
        let body = try await JSONBody.read(request, limit: configuration.maximumBodySize)
        let kb = try tenancy.knowledgeBase(context)
        return try JSONResponse.make(FactBody(try await kb.apply(RequestValues.factEdit(body), toFact: id)))
    }

    /// `DELETE /api/facts/{id}`: deletes (hidden, kept in the history, undoable); 204 No Content.
    /// With `?erase=true`, erases for good instead and answers the ``ErasureReceipt``.
    @Sendable func deleteFact(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let id = try RequestValues.factID(context.parameters.get("fact_id"))
        let kb = try tenancy.knowledgeBase(context)
        if try RequestValues.boolean(request.uri.queryParameters.get("erase"), name: "erase") == true {
            return try JSONResponse.make(try await kb.eraseFacts(ids: [id]))
        }
        try await kb.deleteFact(id: id)
        return Response(status: .noContent)
    }

    /// `DELETE /api/knowledge`: erases the caller's whole knowledge base for good and answers
    /// the ``ErasureReceipt``.
    @Sendable func eraseKnowledge(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        try JSONResponse.make(try await tenancy.knowledgeBase(context).eraseNamespace())
    }

    private func detail(_ node: TopicNode, kb: KnowledgeBase, request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        let includeInactive = try RequestValues.boolean(query.get("include_inactive"), name: "include_inactive") ?? false
        let limit = try RequestValues.limit(RequestValues.integer(query.get("limit"), name: "limit"),
                                            default: 100, maximum: configuration.maximumPageSize)
        let facts = try await kb.facts(
            matching: FactFilter(topicPath: TopicPath(node.topic.path), activity: includeInactive ? .all : .activeOnly), limit: limit)
        let children = node.children.map {
            TopicDetailBody.Child(id: $0.topic.id, name: $0.topic.name, path: $0.topic.path,
                                  factCount: $0.factCount, subtreeFactCount: $0.subtreeFactCount)
        }
        return try JSONResponse.make(TopicDetailBody(
            id: node.topic.id, name: node.topic.name, path: node.topic.path, parentId: node.topic.parentID,
            factCount: node.factCount, subtreeFactCount: node.subtreeFactCount, children: children,
            facts: facts.map(FactBody.init)))
    }

    /// A topic named by path (a string) or id (a number) in a merge body.
    private static func topicPath(_ value: Any, field: String, in tree: [TopicNode]) throws -> String {
        if let path = value as? String { return path }
        if let number = value as? NSNumber, !JSONBody.isBoolean(number), let id = Int64(exactly: number.doubleValue) {
            guard let node = tree.node(id: id) else { throw APIError.notFound("no topic with id \(id)") }
            return node.topic.path
        }
        throw APIError.badRequest("wrong_field_type", "\"\(field)\" must hold topic paths (strings) or ids (numbers)")
    }
}

extension [TopicNode] {
    /// The node with this topic id, searched depth first.
    func node(id: Int64) -> TopicNode? {
        for node in self {
            if node.topic.id == id { return node }
            if let found = node.children.node(id: id) { return found }
        }
        return nil
    }
}

extension Array {
    var nonEmpty: Self? { isEmpty ? nil : self }
}
