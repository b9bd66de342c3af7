import Hummingbird
import Mnemo

/// The shared filter fields of a query string (`?type=goal&importance=high&limit=20`), through
/// the vocabulary every front door shares; a field may repeat (`type=goal&type=fact`).
enum QueryFields {
    static func parameters(
        _ query: Parameters, _ fields: [FilterField], maximumLimit: Int
    ) throws -> SearchParameters {
        var parameters = SearchParameters(maximumLimit: maximumLimit)
        for field in fields {
            try parameters.set(field, to: query.getAll(field.rawValue).map { String($0) })
        }
        return parameters
    }

    /// A query-string boolean outside the filter fields (Lucid's `is_active`).
    static func boolean(_ query: Parameters, _ name: String) throws -> Bool? {
        guard let text = query.get(name) else { return nil }
        switch text.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw APIError.badRequest("invalid_parameter", "\(name) takes true or false, not \"\(text)\"")
        }
    }
}

/// The fact id of a route's path; an id that cannot exist is simply not found.
enum FactPath {
    static func id(_ context: MnemoRequestContext) throws -> Int64 {
        let text = context.parameters.get("fact_id")
        guard let text, let id = Int64(text) else { throw APIError.notFound("no fact with id \(text ?? "")") }
        return id
    }
}
