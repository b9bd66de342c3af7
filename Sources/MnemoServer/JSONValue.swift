import Foundation

/// Any JSON value read by `JSONSerialization`, encodable again (to echo part of a request).
enum JSONValue: Encodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(_ value: Any) {
        switch value {
        case let string as String: self = .string(string)
        case let number as NSNumber:
            self = JSONBody.isBoolean(number) ? .bool(number.boolValue) : .number(number.doubleValue)
        case let array as [Any]: self = .array(array.map(JSONValue.init))
        case let object as [String: Any]: self = .object(object.mapValues(JSONValue.init))
        default: self = .null
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case let .bool(value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case let .number(value):
            var container = encoder.singleValueContainer()
            if let integer = Int64(exactly: value) { try container.encode(integer) } else { try container.encode(value) }
        case let .string(value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case let .array(values):
            var container = encoder.unkeyedContainer()
            for value in values { try container.encode(value) }
        case let .object(values):
            // The server's encoder converts keys to snake_case; request keys already are.
            var container = encoder.container(keyedBy: VerbatimKey.self)
            for (key, value) in values { try container.encode(value, forKey: VerbatimKey(key)) }
        }
    }

    private struct VerbatimKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
