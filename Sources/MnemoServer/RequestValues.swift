import Foundation
import Mnemo

/// Parsing of the values routes share (search modes, filters, pages, fact edits), with the
/// ingest reason codes where one applies.
enum RequestValues {
    static func mode(_ text: String?, default fallback: SearchMode) throws -> SearchMode {
        guard let text else { return fallback }
        guard let mode = SearchMode(rawValue: text.lowercased()) else {
            throw APIError.badRequest("unknown_mode", "unknown mode \"\(text)\" (expected text, semantic or hybrid)")
        }
        return mode
    }

    /// Type names, each possibly a comma-separated list; `nil` when none are given.
    static func types(_ texts: [String]?) throws -> Set<FactType>? {
        try list(texts).map { names in
            Set(try names.map { name in
                guard let type = FactType(parsing: name) else { throw unknownType(name) }
                return type
            })
        }
    }

    static func importances(_ texts: [String]?) throws -> Set<Importance>? {
        try list(texts).map { names in Set(try names.map(importance)) }
    }

    static func importance(_ name: String) throws -> Importance {
        guard let importance = Importance(parsing: name) else {
            throw APIError.badRequest("unknown_importance", "unknown importance \"\(name)\" (expected high, medium, low or none)")
        }
        return importance
    }

    static func type(_ name: String) throws -> FactType {
        guard let type = FactType(parsing: name) else { throw unknownType(name) }
        return type
    }

    private static func unknownType(_ name: String) -> APIError {
        .badRequest("unknown_type", "unknown type \"\(name)\" (expected fact, preference, goal or experience)")
    }

    private static func list(_ texts: [String]?) -> [String]? {
        guard let texts else { return nil }
        let names = texts.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return names.isEmpty ? nil : names
    }

    /// A page size between 1 and `maximum`.
    static func limit(_ value: Int?, default fallback: Int, maximum: Int, name: String = "limit") throws -> Int {
        guard let value else { return fallback }
        guard (1...maximum).contains(value) else {
            throw APIError.badRequest("invalid_parameter", "\"\(name)\" must be between 1 and \(maximum), not \(value)")
        }
        return value
    }

    static func offset(_ value: Int?) throws -> Int {
        guard let value else { return 0 }
        guard value >= 0 else { throw APIError.badRequest("invalid_parameter", "\"offset\" must not be negative") }
        return value
    }

    static func minSimilarity(_ value: Double?) throws -> Double? {
        guard let value else { return nil }
        guard (-1...1).contains(value) else {
            throw APIError.badRequest("invalid_parameter", "\"min_similarity\" must be between -1 and 1, not \(value)")
        }
        return value
    }

    /// A query-string integer.
    static func integer(_ text: String?, name: String) throws -> Int? {
        guard let text else { return nil }
        guard let value = Int(text) else {
            throw APIError.badRequest("invalid_parameter", "\"\(name)\" must be a whole number, not \"\(text)\"")
        }
        return value
    }

    static func boolean(_ text: String?, name: String) throws -> Bool? {
        guard let text else { return nil }
        switch text.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw APIError.badRequest("invalid_parameter", "\"\(name)\" must be true or false, not \"\(text)\"")
        }
    }

    /// A fact id from a path; ids that cannot exist are simply not found.
    static func factID(_ text: String?) throws -> Int64 {
        guard let text, let id = Int64(text) else { throw APIError.notFound("no fact with id \(text ?? "")") }
        return id
    }

    /// The edits of a fact update body: `content`, `type`, `importance`, `confidence`, `topic`
    /// (or `category`, as the Lucid client names it) and `is_active`.
    static func factEdit(_ body: JSONBody) throws -> (update: FactUpdate, isActive: Bool?) {
        var update = FactUpdate()
        if let content = try body.string("content") {
            let trimmed = content.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw APIError.badRequest("empty_content", "\"content\" must not be empty") }
            guard trimmed.count <= Fact.maximumContentLength else {
                throw APIError.badRequest("content_too_long", "\"content\" has \(trimmed.count) characters; the maximum is \(Fact.maximumContentLength)")
            }
            update.content = trimmed
        }
        update.type = try body.string("type").map(type)
        update.importance = try body.string("importance").map(importance)
        if let confidence = try body.double("confidence") {
            guard (0...1).contains(confidence) else {
                throw APIError.badRequest("confidence_out_of_range", "\"confidence\" must be between 0 and 1, not \(confidence)")
            }
            update.confidence = confidence
        }
        update.topicPath = try (body.string("topic") ?? body.string("category")).map { try TopicPath($0) }
        if body.hasKey("expires_at") {
            // `null` removes the expiry; a date sets it.
            if let text = try body.string("expires_at") {
                guard let date = Timestamp.parse(text) else {
                    throw APIError.badRequest("bad_date", "\"expires_at\" must be an ISO 8601 date such as 2025-01-15T10:30:00Z, not \"\(text)\"")
                }
                update.expiresAt = .some(date)
            } else {
                update.expiresAt = .some(nil)
            }
        }
        let isActive = try body.bool("is_active")
        let editable = ["content", "type", "importance", "confidence", "topic", "category", "is_active", "expires_at"]
        guard editable.contains(where: { $0 == "expires_at" ? body.hasKey($0) : body.has($0) }) else {
            throw APIError.badRequest("nothing_to_update", "send at least one of \(editable.joined(separator: ", "))")
        }
        return (update, isActive)
    }
}

extension KnowledgeBase {
    /// Applies a fact edit: the field changes and the active state, in one transaction.
    func apply(_ edit: (update: FactUpdate, isActive: Bool?), toFact id: Int64) async throws -> Fact {
        try await updateFact(id: id, edit.update, isActive: edit.isActive)
    }
}
