import Foundation
import HTTPTypes
import Hummingbird
import Mnemo

/// A request's JSON object body with typed, checked field access.
///
/// Unknown keys are ignored and `null` counts as absent, as in ingest. A field of the wrong JSON
/// type is a 400 with the ingest reason code `wrong_field_type`.
struct JSONBody {
    /// The body's bytes, for readers that want them whole (the extract route's records).
    let data: Data
    private let object: [String: Any]

    /// Reads and parses a request body.
    /// - Throws: 415 when the body is declared as something other than JSON, 413 over `limit`
    ///   bytes, 400 when it is empty, not JSON or not an object.
    static func read(_ request: Request, limit: Int) async throws -> JSONBody {
        if let type = request.headers[.contentType], !isJSON(type) {
            throw APIError(.unsupportedMediaType, "unsupported_media_type",
                           "the body must be JSON (Content-Type: application/json), not \(type)")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: limit)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw tooLarge(limit)
        }
        let data = Data(buffer.readableBytesView)
        guard !data.isEmpty else { throw APIError.badRequest("invalid_json", "the body is empty; send a JSON object") }
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw APIError.badRequest("invalid_json", "the body is not valid JSON")
        }
        guard let object = value as? [String: Any] else {
            throw APIError.badRequest("not_an_object", "the body must be a JSON object")
        }
        return JSONBody(data: data, object: object)
    }

    private static func tooLarge(_ limit: Int) -> APIError {
        APIError(.contentTooLarge, "body_too_large", "the request body is over the limit of \(limit) bytes")
    }

    /// `application/json`, with parameters, or any `+json` type.
    static func isJSON(_ contentType: String) -> Bool {
        let media = contentType.split(separator: ";")[0].trimmingCharacters(in: .whitespaces).lowercased()
        return media == "application/json" || media.hasSuffix("+json")
    }

    /// Whether the key is present and not `null`.
    func has(_ key: String) -> Bool { value(key) != nil }

    /// Whether the key is present, `null` included (a `null` that clears a field).
    func hasKey(_ key: String) -> Bool { object[key] != nil }

    func value(_ key: String) -> Any? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        return value
    }

    func string(_ key: String) throws -> String? {
        guard let value = value(key) else { return nil }
        guard let string = value as? String else { throw Self.wrongType(key, "a string") }
        return string
    }

    func bool(_ key: String) throws -> Bool? {
        guard let value = value(key) else { return nil }
        guard let number = value as? NSNumber, Self.isBoolean(number) else { throw Self.wrongType(key, "true or false") }
        return number.boolValue
    }

    func double(_ key: String) throws -> Double? {
        guard let value = value(key) else { return nil }
        guard let number = value as? NSNumber, !Self.isBoolean(number) else { throw Self.wrongType(key, "a number") }
        return number.doubleValue
    }

    func int(_ key: String) throws -> Int? {
        guard let double = try double(key) else { return nil }
        guard let int = Int(exactly: double) else { throw Self.wrongType(key, "a whole number") }
        return int
    }

    /// A string or an array of strings, as a list.
    func strings(_ key: String) throws -> [String]? {
        guard let value = value(key) else { return nil }
        if let string = value as? String { return [string] }
        guard let array = value as? [Any], let strings = array as? [String] else {
            throw Self.wrongType(key, "a string or an array of strings")
        }
        return strings
    }

    /// An array of strings.
    func stringArray(_ key: String) throws -> [String]? {
        guard let value = value(key) else { return nil }
        guard let array = value as? [Any], let strings = array as? [String] else {
            throw Self.wrongType(key, "an array of strings")
        }
        return strings
    }

    private static func wrongType(_ key: String, _ expected: String) -> APIError {
        .badRequest("wrong_field_type", "\"\(key)\" must be \(expected)")
    }

    /// `JSONSerialization` returns booleans as `NSNumber`s; only their Objective-C type (`c`)
    /// tells them apart from the numbers 0 and 1, on Darwin and Linux alike.
    static func isBoolean(_ number: NSNumber) -> Bool {
        number.objCType.pointee == CChar(UInt8(ascii: "c"))
    }
}
