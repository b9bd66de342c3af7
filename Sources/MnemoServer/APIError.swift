import Foundation
import HTTPTypes
import Hummingbird
import Mnemo

/// An error answered as JSON: `{"error": {"code": "...", "message": "..."}}`, with the rejected
/// records when facts were refused.
package struct APIError: Error, HTTPResponseError, CustomStringConvertible {
    package var status: HTTPResponse.Status
    /// A stable, machine-readable code such as `not_found` or `unknown_type`.
    package var code: String
    /// What went wrong, for a person.
    package var message: String
    /// Each refused record with its position and ingest reason code.
    package var rejected: [IngestRejection]?
    package var headers: HTTPFields = [:]

    package init(_ status: HTTPResponse.Status, _ code: String, _ message: String, rejected: [IngestRejection]? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.rejected = rejected
    }

    package var description: String { "\(status.code) \(code): \(message)" }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try ErrorJSON(code: code, message: message, rejected: rejected).response(
            from: request, context: context)
        response.status = status
        response.headers.append(contentsOf: headers)
        return response
    }
}

extension APIError {
    static func badRequest(_ code: String, _ message: String) -> APIError { APIError(.badRequest, code, message) }
    static func notFound(_ message: String) -> APIError { APIError(.notFound, "not_found", message) }

    static func forbidden(_ requested: String) -> APIError {
        APIError(.forbidden, "forbidden", "this token belongs to another user than \"\(requested)\"")
    }

    /// The answer to a thrown error: as is when it is one already, else mapped from the library's
    /// and Hummingbird's errors. Anything else is an internal error whose details stay in the log.
    static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as MnemoError:
            return from(error)
        case let error as FilterValueError:
            return .badRequest(error.code, error.message)
        case let error as HTTPError:
            return from(error)
        default:
            return APIError(.internalServerError, "internal_error", "the server failed to handle the request")
        }
    }

    private static func from(_ error: MnemoError) -> APIError {
        let message = error.description
        switch error {
        case .notFound:
            return .notFound(message)
        case .invalidInput(let field, _):
            let field = field.lowercased()
            if field.contains("topic") || field.contains("path") { return .badRequest("bad_topic", message) }
            if field == "namespace" { return .badRequest("invalid_user", message) }
            // A merge the tree's present shape forbids (a topic into itself or its subtopic): the
            // request is well-formed, the state is what refuses it.
            if field == "sources" { return APIError(.conflict, "invalid_merge", message) }
            return .badRequest("invalid_\(field)", message)
        case .conflict(.duplicateFact): return APIError(.conflict, "duplicate_fact", message)
        case .conflict(.topicExists): return APIError(.conflict, "topic_exists", message)
        case .conflict(.topicNotEmpty): return APIError(.conflict, "topic_not_empty", message)
        case .unreadableInput: return .badRequest("invalid_json", message)
        // The file itself is the problem (read-only, not a Mnemo database, from a newer
        // version): no request can succeed until an operator acts, which is what 503 says.
        case .databaseUnusable: return APIError(.serviceUnavailable, "database_unusable", message)
        // The request is valid; the user's plan is full: deleting facts (or a larger plan) lets
        // the same request succeed.
        case .quotaExceeded: return APIError(.conflict, "quota_exceeded", message)
        // PostgreSQL is down or did not answer in time: nothing was written, and the same
        // request succeeds once it is back.
        case .storageUnavailable, .interrupted(_, .storageUnavailable):
            var answer = APIError(.serviceUnavailable, "storage_unavailable", message)
            // A node probes the store every quarter second once it failed: a second is enough.
            answer.headers[.retryAfter] = "1"
            return answer
        // The client fell behind the feed's window: it reads the snapshot again.
        case .cursorExpired: return APIError(.gone, "cursor_expired", message)
        case .conflict, .storageFailure, .embedderFailure, .interrupted, .cancelled:
            return APIError(.internalServerError, "internal_error", message)
        }
    }

    private static func from(_ error: HTTPError) -> APIError {
        var answer =
            switch error.status {
            case .notFound: APIError.notFound(error.body ?? "no such route")
            case .contentTooLarge:
                APIError(.contentTooLarge, "body_too_large", error.body ?? "the request body is too large")
            case .methodNotAllowed:
                APIError(.methodNotAllowed, "method_not_allowed", error.body ?? "this route does not take that method")
            default:
                APIError(
                    error.status, error.status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_"),
                    error.body ?? error.status.reasonPhrase)
            }
        answer.headers = error.headers
        return answer
    }
}
