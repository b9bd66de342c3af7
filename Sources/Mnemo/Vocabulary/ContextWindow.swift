import Foundation

/// The window of a period's context (``KnowledgeBase/context(window:budget:)``) as every front
/// door takes it — `mnemo context --window 30d`, `GET /api/context?window=30d`, `POST
/// /v1/context`'s `"window"` — an age such as `36h`, `7d`, `2w`, `3mo` or `1y`.
package enum ContextWindow {
    /// The window's length in seconds.
    package static func parse(_ text: String, field: String = "window") throws(FilterValueError) -> TimeInterval {
        guard case .age(let seconds) = TimeBound(text) else {
            throw FilterValueError(
                field: field, code: "invalid_parameter",
                message: "\(field) takes an age such as 36h, 7d, 2w, 3mo or 1y, not \"\(text)\"")
        }
        return seconds
    }
}
