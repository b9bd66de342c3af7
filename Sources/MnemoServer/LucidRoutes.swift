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
    @Sendable func eraseMemory(_ request: Request, context: MnemoRequestContext) async throws -> ErasureReceipt {
        let kb = try await tenancy.knowledgeBase(context, naming: context.parameters.get("user_id"))
        return try await kb.eraseNamespace()
    }

    /// `GET /v1/users/{user_id}/facts?limit=50&offset=0&is_active=true&status=active`
    @Sendable func list(_ request: Request, context: MnemoRequestContext) async throws -> EditedResponse<LucidFactList>
    {
        let query = QueryFields(request)
        let kb = try await tenancy.knowledgeBase(context, naming: context.parameters.get("user_id"))
        var page = try query.parameters([.limit, .offset, .status], maximumLimit: configuration.maximumPageSize)
        let activity: FactFilter.Activity =
            switch try query.boolean("is_active") {
            case true?: .activeOnly
            case false?: .inactiveOnly
            case nil: .all
            }
        page.activity = activity
        let limit = page.limit ?? 50
        let offset = page.offset ?? 0
        return try await reflectingCursor(of: kb) {
            let facts = try await kb.facts(matching: page.filter, limit: limit, offset: offset)
            return LucidFactList(facts: facts.map(LucidFact.init), count: facts.count, limit: limit, offset: offset)
        }
    }

    /// `PATCH /v1/facts/{fact_id}` with any subset of the editable fields.
    @Sendable func update(_ request: Request, context: MnemoRequestContext) async throws -> LucidFact {
        let id = try FactPath.id(context)
        let body = try await request.decode(as: FactEditRequest.self, context: context)
        let kb = try await tenancy.knowledgeBase(context, naming: body.userId)
        let edit = try body.edit()
        return LucidFact(try await kb.updateFact(id: id, edit.update, isActive: edit.isActive))
    }

    /// `POST /v1/facts/search` with `query`, `user_id`, `limit`, `min_similarity`, and optionally
    /// `mode` (semantic by default, as Lucid's similarity search), `type`, `importance`, `topic`.
    @Sendable func search(_ request: Request, context: MnemoRequestContext) async throws -> EditedResponse<
        LucidSearchResponse
    > {
        let body = try await request.decode(as: SearchRequest.self, context: context)
        let kb = try await tenancy.knowledgeBase(context, naming: body.userId)
        guard let text = body.query, !text.trimmingBlanks.isEmpty else {
            throw APIError.badRequest("missing_query", "\"query\" must be a non-empty string")
        }
        var query = try body.parameters(maximumLimit: configuration.maximumPageSize)
            .searchQuery(text, defaultMode: .semantic, defaultLimit: 10, now: kb.now)
        // Lucid's contract is `limit` and `min_similarity`: no relative cut on top of them.
        query.relativeScoreFloor = nil
        return try await reflectingCursor(of: kb) { [query] in
            let results = try await kb.search(query).map {
                LucidSearchResponse.Result(fact: LucidFact($0.fact), similarity: $0.similarity ?? 0, score: $0.score)
            }
            return LucidSearchResponse(
                results: results, count: results.count, query: text, mode: (query.mode ?? .semantic).rawValue)
        }
    }

    static let maximumExtractLimit = 1_000

    /// `POST /v1/facts/extract`: stores the `extracted` records the app's extractor produced,
    /// with the conversation as their source, all or nothing.
    @Sendable func extract(_ request: Request, context: MnemoRequestContext) async throws -> EditedResponse<
        LucidExtractResponse
    > {
        let data = try await context.requestDecoder.data(of: request)
        let body = try MnemoRequestDecoder.decode(ExtractRequest.self, from: data)
        let kb = try await tenancy.knowledgeBase(context, naming: body.userId)
        // The extractor's cap, checked as the document declares it; every record sent is stored.
        if let limit = body.limit {
            var cap = SearchParameters(maximumLimit: Self.maximumExtractLimit)
            try cap.setLimit(limit)
        }
        guard let extracted = body.extracted else {
            throw APIError(
                .unprocessableContent, "extraction_upstream",
                """
                Mnemo does not read conversations: run the fact extractor in the app's backend and send its \
                output as "extracted": [{"content": ..., "category": ..., "confidence": ...}]
                """)
        }
        guard case .array = extracted else {
            throw APIError.badRequest("wrong_field_type", "\"extracted\" must be an array of fact records")
        }
        let conversation = body.conversationId
        let namespace = kb.namespace
        let outcome = try await kb.storeAllOrNothing(data: data, format: .extracted) { record in
            if let named = record.namespace, named != namespace { throw APIError.forbidden(named) }
            record.namespace = nil
            if let conversation, !record.sources.contains(conversation) { record.sources.append(conversation) }
        }
        switch outcome {
        case .rejected(let rejections):
            let first = rejections[0]
            // Valid records refused by the user's fact limit: the state refuses them, not the body.
            let status: HTTPResponse.Status = first.code == .quotaExceeded ? .conflict : .badRequest
            throw APIError(
                status, first.code.rawValue,
                "extracted record \(first.record) (\(first)); nothing was stored", rejected: rejections)
        case .stored(let records, let evicted):
            let created = records.filter { $0.disposition == .added }.map { LucidFact($0.fact) }
            var seen = Set(created.map(\.id))
            let updated = records.filter { $0.disposition != .added }.map { LucidFact($0.fact) }.filter {
                seen.insert($0.id).inserted
            }
            let known = updated.isEmpty ? "" : ", \(updated.count) already known"
            // Echoed with the keys as the client wrote them (the decoder's key strategy would change them).
            let echoed = (try? JSONDecoder().decode([String: JSONValue].self, from: data))?["extracted"] ?? extracted
            let response = LucidExtractResponse(
                extracted: echoed, created: created, updated: updated, count: created.count,
                message: "Extracted \(records.count) facts, created \(created.count) successfully\(known)",
                evicted: evicted.isEmpty ? nil : evicted.map { String($0.id) })
            return EditedResponse(status: .created, response: response)
        }
    }
}
