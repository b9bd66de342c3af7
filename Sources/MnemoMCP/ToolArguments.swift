import MCP
import Mnemo

/// A tool call's arguments with typed access; a wrong or missing value is a ``ToolInputError``
/// the assistant reads and can correct.
struct ToolArguments {
    let values: [String: Value]

    /// - Parameter declared: the argument names the tool's schema declares; any other is an
    ///   error (the schemas say `additionalProperties: false`), so that a misspelt argument is
    ///   never silently ignored.
    init(_ values: [String: Value]?, declared: [String]? = nil) throws {
        self.values = (values ?? [:]).filter { $0.value != .null }
        if let declared, let unknown = self.values.keys.sorted().first(where: { !declared.contains($0) }) {
            throw FilterValueError.unknownParameter(unknown, known: declared)
        }
    }

    func string(_ key: String) throws -> String? {
        guard let value = values[key] else { return nil }
        guard let string = value.stringValue else { throw ToolInputError("\"\(key)\" must be a string") }
        return string
    }

    func requiredString(_ key: String) throws -> String {
        guard let string = try string(key), !string.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ToolInputError("\"\(key)\" is required and must not be empty")
        }
        return string
    }

    func int(_ key: String) throws -> Int? {
        guard let value = values[key] else { return nil }
        if let int = value.intValue { return int }
        if let double = value.doubleValue, let int = Int(exactly: double) { return int }
        throw ToolInputError("\"\(key)\" must be a whole number")
    }

    func double(_ key: String) throws -> Double? {
        guard let value = values[key] else { return nil }
        if let double = value.doubleValue { return double }
        if let int = value.intValue { return Double(int) }
        throw ToolInputError("\"\(key)\" must be a number")
    }

    func bool(_ key: String) throws -> Bool? {
        guard let value = values[key] else { return nil }
        guard let bool = value.boolValue else { throw ToolInputError("\"\(key)\" must be true or false") }
        return bool
    }

    /// A string or an array of strings.
    func strings(_ key: String) throws -> [String]? {
        guard let value = values[key] else { return nil }
        if let string = value.stringValue { return [string] }
        guard let array = value.arrayValue else { throw ToolInputError("\"\(key)\" must be an array of strings") }
        return try array.map { item in
            guard let string = item.stringValue else { throw ToolInputError("\"\(key)\" must be an array of strings") }
            return string
        }
    }

    /// An array of whole numbers.
    func ids(_ key: String) throws -> [Int64]? {
        guard let value = values[key] else { return nil }
        guard let array = value.arrayValue else { throw ToolInputError("\"\(key)\" must be an array of fact ids") }
        return try array.map { item in
            if let int = item.intValue { return Int64(int) }
            if let double = item.doubleValue, let int = Int64(exactly: double) { return int }
            throw ToolInputError("\"\(key)\" must be an array of fact ids (whole numbers)")
        }
    }

    func factID() throws -> Int64 {
        guard let id = try int("id") else {
            throw ToolInputError("\"id\" is required: the fact's id from search_memory")
        }
        return Int64(id)
    }
}

/// A tool call the assistant can fix: wrong arguments, an unknown id, a rejected fact.
struct ToolInputError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
