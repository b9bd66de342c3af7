import Foundation
import Hummingbird
import Mnemo

/// The memory an assistant should see before it answers: `POST /v1/context` (Lucid's style, the
/// user in the body) and `GET /api/context` (MindChat's, the user from the token).
struct ContextRoutes {
    let tenancy: Tenancy

    func add(to router: Router<MnemoRequestContext>) {
        router.post("v1/context", use: post)
        router.get("api/context", use: get)
        router.post("v1/user-context", use: postPeriod)
        router.get("api/user-context", use: getPeriod)
    }

    /// `POST /v1/user-context` with `{"user_id", "window", "budget_tokens"}`: the active goals,
    /// the goals completed in the window and its experiences (Lume's `UserContext`).
    @Sendable func postPeriod(_ request: Request, context: MnemoRequestContext) async throws -> PeriodContextJSON {
        let body = try await request.decode(as: PeriodRequest.self, context: context)
        let kb = try await tenancy.knowledgeBase(context, naming: body.userId)
        let window = try ContextWindow.parse(body.window ?? "30d")
        let budget = try ContextBudget.checked(body.budgetTokens ?? ContextBudget.default, field: "budget_tokens")
        return PeriodContextJSON(try await kb.context(window: window, budget: budget))
    }

    /// `GET /api/user-context?window=30d&budget=900`
    @Sendable func getPeriod(_ request: Request, context: MnemoRequestContext) async throws -> PeriodContextJSON {
        let kb = try await tenancy.knowledgeBase(context)
        let query = QueryFields(request)
        let window = try ContextWindow.parse(query.get("window") ?? "30d")
        var budget = ContextBudget.default
        if let text = query.get("budget") { budget = try ContextBudget.parse(text) }
        return PeriodContextJSON(try await kb.context(window: window, budget: budget))
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
        let budget = try ContextBudget.checked(body.budgetTokens ?? ContextBudget.default, field: "budget_tokens")
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
        var budget = ContextBudget.default
        if let text = query.get("budget") { budget = try ContextBudget.parse(text) }
        return MemoryContextJSON(
            try await kb.context(
                for: message, budget: budget,
                options: ContextOptions(filter: parameters.filter(now: kb.now))))
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

/// `POST /v1/user-context`'s body.
struct PeriodRequest: Decodable {
    var userId: String?
    var window: String?
    var budgetTokens: Int?
}
extension PeriodContextJSON: ResponseEncodable {}
