import Foundation
import Hummingbird
import Mnemo

/// The memory an assistant should see before it answers: `POST /v1/context` (Lucid's style, the
/// user in the body) and `GET /api/context` (MindChat's, the user from the token).
struct ContextRoutes {
    let tenancy: Tenancy

    /// The largest budget a request may ask for: far above any model's context window, small
    /// enough that a request cannot make the server render the whole memory.

    func add(to router: Router<MnemoRequestContext>) {
        router.post("v1/context", use: post)
        router.get("api/context", use: get)
    }

    /// `POST /v1/context` with `{"user_id", "message", "budget_tokens", "since"?, "until"?, "topic"?}`.
    @Sendable func post(_ request: Request, context: MnemoRequestContext) async throws -> MemoryContextJSON {
        let body = try await request.decode(as: ContextRequest.self, context: context)
        let kb = try await tenancy.knowledgeBase(context, naming: body.userId)
        guard let message = body.message, !message.trimmingBlanks.isEmpty else {
            throw APIError.badRequest("missing_message", "\"message\" must be a non-empty string")
        }
        var parameters = SearchParameters()
        try parameters.set(.since, to: body.since.map { [$0] } ?? [])
        try parameters.set(.until, to: body.until.map { [$0] } ?? [])
        try parameters.set(.topic, to: body.topic.map { [$0] } ?? [])
        let budget = try Self.budget(body.budgetTokens, name: "budget_tokens")
        return MemoryContextJSON(
            try await kb.context(
                for: message, budget: budget,
                options: ContextOptions(filter: parameters.filter(now: kb.now))))
    }

    /// `GET /api/context?q=…&budget=…&since=…&until=…&topic=…`
    @Sendable func get(_ request: Request, context: MnemoRequestContext) async throws -> MemoryContextJSON {
        let kb = try await tenancy.knowledgeBase(context)
        let query = QueryFields(request)
        guard let message = query.get("q"), !message.trimmingBlanks.isEmpty else {
            throw APIError.badRequest(
                "missing_query", "give the user's message: /api/context?q=where+does+my+sister+live&budget=800")
        }
        let parameters = try query.parameters([.since, .until, .topic], maximumLimit: 1)
        var budget: Int?
        if let text = query.get("budget") {
            guard let value = Int(text) else {
                throw APIError.badRequest("invalid_parameter", "budget takes a whole number of tokens, not \"\(text)\"")
            }
            budget = value
        }
        return MemoryContextJSON(
            try await kb.context(
                for: message, budget: try Self.budget(budget, name: "budget"),
                options: ContextOptions(filter: parameters.filter(now: kb.now))))
    }

    /// The budget asked for, 800 tokens when none is.
    static func budget(_ value: Int?, name: String) throws -> Int {
        guard let value else { return ContextOptions.defaultBudget }
        guard (0...ContextOptions.maximumBudget).contains(value) else {
            throw APIError.badRequest(
                "invalid_parameter",
                "\(name) takes a whole number of tokens from 0 to \(ContextOptions.maximumBudget), not \(value)")
        }
        return value
    }
}

/// `POST /v1/context`'s body.
struct ContextRequest: Decodable {
    var userId: String?
    var message: String?
    var budgetTokens: Int?
    var since: String?
    var until: String?
    var topic: String?
}

extension MemoryContextJSON: ResponseEncodable {}
