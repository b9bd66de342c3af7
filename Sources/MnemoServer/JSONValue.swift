import Foundation

/// Any JSON value of a request, encodable again (to echo part of a request).
enum JSONValue: Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// A value read by `JSONSerialization`, keys as the client wrote them.
    init(_ value: Any) {
        switch value {
        case let string as String: self = .string(string)
        case let number as NSNumber:
            self = Self.isBoolean(number) ? .bool(number.boolValue) : .number(number.doubleValue)
        case let array as [Any]: self = .array(array.map(JSONValue.init))
        case let object as [String: Any]: self = .object(object.mapValues(JSONValue.init))
        default: self = .null
        }
    }

    /// `JSONSerialization` returns booleans as `NSNumber`s; only their Objective-C type (`c`)
    /// tells them apart from the numbers 0 and 1, on Darwin and Linux alike.
    static func isBoolean(_ number: NSNumber) -> Bool {
        number.objCType.pointee == CChar(UInt8(ascii: "c"))
    }

    /// A value decoded from a body (its object keys as the decoder's key strategy gives them).
    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var values: [JSONValue] = []
            while !array.isAtEnd { values.append(try array.decode(JSONValue.self)) }
            self = .array(values)
        } else if let object = try? decoder.container(keyedBy: VerbatimKey.self) {
            var values: [String: JSONValue] = [:]
            for key in object.allKeys { values[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            self = .object(values)
        } else {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else {
                self = .string(try container.decode(String.self))
            }
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
