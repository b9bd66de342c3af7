import Foundation
import Hummingbird
import Mnemo

/// Lucid's fact API (`/v1`): list, update, search and store extracted facts.
struct LucidRoutes {
    let tenancy: Tenancy
    let configuration: ServerConfiguration

    func add(to router: Router<MnemoRequestContext>) {
        let v1 = router.group("v1")
        v1.get("users/:user_id/facts", use: list)
        v1.patch("facts/:fact_id", use: update)
        v1.post("facts/search", use: search)
        v1.post("facts/extract", use: extract)
        v1.delete("users/:user_id/memory", use: eraseMemory)
    }

    /// `DELETE /v1/users/{user_id}/memory`: erases the user's whole memory for good (facts,
    /// topics, history, undo records) and answers the ``ErasureReceipt``.
    @Sendable func eraseMemory(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let kb = try tenancy.knowledgeBase(context, naming: context.parameters.get("user_id"))
        return try JSONResponse.make(try await kb.eraseNamespace())
    }

    /// `GET /v1/users/{user_id}/facts?limit=50&offset=0&is_active=true`
    @Sendable func list(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let kb = try tenancy.knowledgeBase(context, naming: context.parameters.get("user_id"))
        let limit = try RequestValues.limit(RequestValues.integer(query.get("limit"), name: "limit"),
                                            default: 50, maximum: configuration.maximumPageSize)
        let offset = try RequestValues.offset(RequestValues.integer(query.get("offset"), name: "offset"))
        let activity: FactFilter.Activity = switch try RequestValues.boolean(query.get("is_active"), name: "is_active") {
        case true?: .activeOnly
        case false?: .inactiveOnly
        case nil: .all
        }
        let facts = try await kb.facts(matching: FactFilter(activity: activity), limit: limit, offset: offset)
        return try JSONResponse.make(LucidFactList(facts: facts.map(LucidFact.init), count: facts.count, limit: limit, offset: offset))
    }

    /// `PATCH /v1/facts/{fact_id}` with any subset of the editable fields.
    @Sendable func update(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let id = try RequestValues.factID(context.parameters.get("fact_id"))
        let body = try await JSONBody.read(request, limit: configuration.maximumBodySize)
        let kb = try tenancy.knowledgeBase(context, naming: body.string("user_id"))
        let fact = try await kb.apply(RequestValues.factEdit(body), toFact: id)
        return try JSONResponse.make(LucidFact(fact))
    }

    /// `POST /v1/facts/search` with `query`, `user_id`, `limit`, `min_similarity`, and optionally
    /// `mode` (semantic by default, as Lucid's similarity search), `type`, `importance`, `topic`.
    @Sendable func search(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let body = try await JSONBody.read(request, limit: configuration.maximumBodySize)
        let kb = try tenancy.knowledgeBase(context, naming: body.string("user_id"))
        guard let text = try body.string("query"), !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw APIError.badRequest("missing_query", "\"query\" must be a non-empty string")
        }
        let filter = FactFilter(
            types: try RequestValues.types(body.strings("type")),
            importances: try RequestValues.importances(body.strings("importance")),
            minimumImportance: try body.string("min_importance").map(RequestValues.importance),
            topicPath: try body.string("topic").map { try TopicPath($0) },
            activity: try body.bool("include_inactive") == true ? .all : .activeOnly)
        let query = SearchQuery(
            text, mode: try RequestValues.mode(body.string("mode"), default: .semantic), filter: filter,
            limit: try RequestValues.limit(body.int("limit"), default: 10, maximum: configuration.maximumPageSize),
            minSimilarity: try RequestValues.minSimilarity(body.double("min_similarity")),
            // Lucid's contract is `limit` and `min_similarity`: no relative cut on top of them.
            relativeScoreFloor: nil)
        let hits = try await kb.search(query)
        let results = hits.map { LucidSearchResponse.Result(fact: LucidFact($0.fact), similarity: $0.similarity ?? 0, score: $0.score) }
        return try JSONResponse.make(LucidSearchResponse(results: results, count: results.count, query: text, mode: (query.mode ?? .semantic).rawValue))
    }

    /// `POST /v1/facts/extract`: stores the `extracted` records the app's extractor produced,
    /// with the conversation as their source, all or nothing.
    @Sendable func extract(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let body = try await JSONBody.read(request, limit: configuration.maximumBodySize)
        let kb = try tenancy.knowledgeBase(context, naming: body.string("user_id"))
        guard let extracted = body.value("extracted") else {
            throw APIError(.unprocessableContent, "extraction_upstream", """
                Mnemo does not read conversations: run the fact extractor in the app's backend and send its \
                output as "extracted": [{"content": ..., "category": ..., "confidence": ...}]
                """)
        }
        guard extracted is [Any] else {
            throw APIError.badRequest("wrong_field_type", "\"extracted\" must be an array of fact records")
        }
        let conversation = try body.string("conversation_id")
        let namespace = kb.namespace
        let outcome = try await kb.storeAllOrNothing(data: body.data, format: .extracted) { record in
            if let named = record.namespace, named != namespace { throw APIError.forbidden(named) }
            record.namespace = nil
            if let conversation, !record.sources.contains(conversation) { record.sources.append(conversation) }
        }
        switch outcome {
        case let .rejected(rejections):
            let first = rejections[0]
            throw APIError(.badRequest, first.code.rawValue,
                           "extracted record \(first.record) (\(first)); nothing was stored", rejected: rejections)
        case let .stored(records):
            let created = records.filter { $0.disposition == .added }.map { LucidFact($0.fact) }
            var seen = Set(created.map(\.id))
            let updated = records.filter { $0.disposition != .added }.map { LucidFact($0.fact) }.filter { seen.insert($0.id).inserted }
            let known = updated.isEmpty ? "" : ", \(updated.count) already known"
            let response = LucidExtractResponse(
                extracted: JSONValue(extracted), created: created, updated: updated, count: created.count,
                message: "Extracted \(records.count) facts, created \(created.count) successfully\(known)")
            return try JSONResponse.make(response, status: .created)
        }
    }
}
