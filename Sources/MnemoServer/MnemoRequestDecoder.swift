import Foundation
import HTTPTypes
import Hummingbird
import Mnemo

/// Decodes request bodies into the routes' `Decodable` types, answering bad bodies with the
/// server's JSON errors: 415 for a body declared as something other than JSON, 413 over the
/// limit, 400 `invalid_json` for an empty or malformed body, `not_an_object` for JSON that is not
/// an object, and `wrong_field_type` for a field of the wrong JSON type. Unknown keys are
/// ignored and `null` counts as absent, as in ingest.
package struct MnemoRequestDecoder: RequestDecoder {
    let limit: Int

    package func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws
        -> T
    {
        try Self.decode(type, from: try await data(of: request))
    }

    /// The body's bytes, checked to be one JSON object.
    func data(of request: Request) async throws -> Data {
        if let type = request.headers[.contentType], !Self.isJSON(type) {
            throw APIError(
                .unsupportedMediaType, "unsupported_media_type",
                "the body must be JSON (Content-Type: application/json), not \(type)")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError(.contentTooLarge, "body_too_large", "the request body is over the limit of \(limit) bytes")
        }
        let data = Data(buffer.readableBytesView)
        guard !data.isEmpty else { throw APIError.badRequest("invalid_json", "the body is empty; send a JSON object") }
        do {
            _ = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw APIError.badRequest("invalid_json", "the body is not valid JSON")
        }
        do {
            _ = try JSONDecoder().decode(ObjectProbe.self, from: data)
        } catch {
            throw APIError.badRequest("not_an_object", "the body must be a JSON object")
        }
        return data
    }

    /// Decodes a body already checked by ``data(of:)``.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            throw APIError.from(error)
        }
    }

    /// `application/json`, with parameters, or any `+json` type.
    static func isJSON(_ contentType: String) -> Bool {
        let media = contentType.split(separator: ";").first.map(String.init) ?? ""
        let lowered = media.trimmingCharacters(in: .whitespaces).lowercased()
        return lowered == "application/json" || lowered.hasSuffix("+json")
    }
}

/// Decodes when the JSON is an object, reading none of its values (JSONDecoder keeps a number
/// of any size, where JSONSerialization refuses an integer beyond 64 bits).
private struct ObjectProbe: Decodable {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: AnyKey.self)
    }
}

extension APIError {
    /// A body field of the wrong JSON type: `"limit" must be a whole number`.
    static func from(_ error: DecodingError) -> APIError {
        switch error {
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return wrongType(context.codingPath, expected(type))
        case .dataCorrupted(let context):
            guard !context.codingPath.isEmpty else { return .badRequest("invalid_json", "the body is not valid JSON") }
            // JSONDecoder's only complaint about a well-formed value: a number that does not fit.
            return wrongType(context.codingPath, "a whole number in range")
        case .keyNotFound(let key, let context):
            return .badRequest("missing_field", "\"\(name(context.codingPath + [key]))\" is required")
        @unknown default:
            return .badRequest("invalid_json", "the body does not have the expected shape")
        }
    }

    private static func wrongType(_ path: [any CodingKey], _ expected: String) -> APIError {
        .badRequest("wrong_field_type", "\"\(name(path))\" must be \(expected)")
    }

    /// The field as the client wrote it: `min_similarity`, `sources[2]`.
    private static func name(_ path: [any CodingKey]) -> String {
        path.reduce("") { name, key in
            if let index = key.intValue { return name + "[\(index)]" }
            let snake = key.stringValue.reduce(into: "") { text, character in
                if character.isUppercase { text += "_" + character.lowercased() } else { text.append(character) }
            }
            return name.isEmpty ? snake : name + "." + snake
        }
    }

    private static func expected(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int64.Type: "a whole number"
        case is Double.Type: "a number"
        case is StringList.Type: "a string or an array of strings"
        default: "of another type"
        }
    }
}
