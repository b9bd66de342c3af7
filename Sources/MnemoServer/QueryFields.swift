import Foundation
import Hummingbird
import Mnemo

/// A request's query string as forms encode it: `+` is a space and `%2B` a plus sign, a name may
/// repeat (`type=goal&type=fact`).
struct QueryFields {
    private var values: [String: [String]] = [:]

    init(_ request: Request) {
        self.init(encoded: request.uri.query ?? "")
    }

    /// The fields of a query string or of a form's `application/x-www-form-urlencoded` body.
    init(encoded: String) {
        for pair in encoded.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), parts.count == 2, let value = Self.decode(parts[1]) else {
                continue
            }
            values[name, default: []].append(value)
        }
    }

    /// The first field of `encoded` whose name or value is not valid percent-encoded UTF-8, as
    /// the error that names it (the name as far as it reads).
    static func brokenField(in encoded: String) -> APIError? {
        for pair in encoded.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(parts[0])
            if name != nil, parts.count < 2 || decode(parts[1]) != nil { continue }
            let shown = name.map { "the query parameter \"\($0)\"" } ?? "the query parameter named \"\(parts[0])\""
            return APIError.badRequest(
                "invalid_query",
                "\(shown) is not valid percent-encoding (a % must be followed by two hexadecimal digits, and the bytes must be UTF-8): \"\(pair)\""
            )
        }
        return nil
    }

    /// `+` as a space and `%XX` as its byte; `nil` for a broken escape or bytes that are not
    /// UTF-8, as Foundation's `removingPercentEncoding` (which cost a twentieth of a search).
    static func decode(_ text: Substring) -> String? {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        var validator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&validator) {
            case .scalarValue: continue
            case .emptyInput: return String(decoding: bytes, as: UTF8.self)
            case .error: return nil
            }
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The first value of `name`.
    func get(_ name: String) -> String? { values[name]?.first }

    /// Every value of `name`, in order (a form's checked boxes).
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// The shared filter fields among the query's, through the vocabulary every front door shares.
    func parameters(_ fields: [FilterField], maximumLimit: Int) throws -> SearchParameters {
        var parameters = SearchParameters(maximumLimit: maximumLimit)
        for field in fields { try parameters.set(field, to: values[field.rawValue] ?? []) }
        return parameters
    }

    /// A boolean outside the filter fields (Lucid's `is_active`).
    func boolean(_ name: String) throws -> Bool? {
        guard let text = get(name) else { return nil }
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

/// Refuses a request whose query string has a field that does not decode (a `%` without two
/// hexadecimal digits, bytes that are not UTF-8) with 400 `invalid_query` naming the field,
/// before any route reads it: without it the field would be dropped, and the route would answer
/// as if it had not been given (the feed from its start, a search without its query).
struct QueryStringMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        if let query = request.uri.query, let broken = QueryFields.brokenField(in: query) { throw broken }
        return try await next(request, context)
    }
}
