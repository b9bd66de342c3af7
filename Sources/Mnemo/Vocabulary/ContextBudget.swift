/// A context's budget as every front door takes it — `mnemo context --budget`, the REPL's
/// `budget:`, `POST /v1/context`'s `budget_tokens`, `GET /api/context?budget=`, the MCP tool's
/// and prompt's `budget` — checked in one place, with one message.
package enum ContextBudget {
    /// The budget, in tokens, when none is given.
    package static let `default` = 800
    /// The largest budget accepted.
    package static let maximum = 200_000

    /// `value` when it is a budget (0…``maximum``).
    /// - Parameter field: the name the door gives the budget (`budget`, `budget_tokens`).
    package static func checked(_ value: Int, field: String = "budget") throws(FilterValueError) -> Int {
        guard (0...maximum).contains(value) else { throw error(field, "\(value)") }
        return value
    }

    /// The budget written in `text`.
    package static func parse(_ text: String, field: String = "budget") throws(FilterValueError) -> Int {
        guard let value = Int(text.trimmingBlanks) else { throw error(field, "\"\(text)\"") }
        return try checked(value, field: field)
    }

    private static func error(_ field: String, _ shown: String) -> FilterValueError {
        FilterValueError(
            field: field, code: "invalid_parameter",
            message: "\(field) takes a whole number of tokens from 0 to \(maximum), not \(shown)")
    }
}
