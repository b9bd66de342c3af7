/// A change to a fact as the front doors describe it — `mnemo fact update`, `PATCH` on the HTTP
/// routes, the MCP `update_fact` tool — parsed with one message per wrong value.
package struct FactEdit: Hashable, Sendable {
    /// The field changes.
    package var update = FactUpdate()
    /// The new active state, when the edit sets one.
    package var isActive: Bool?

    /// The fields an edit may set, by their vocabulary names.
    package static let fields = ["content", "type", "importance", "confidence", "topic", "is_active", "expires_at"]

    package init() {}

    /// Whether the edit changes nothing.
    package var isEmpty: Bool { self == FactEdit() }

    package mutating func setContent(_ content: String) throws(FilterValueError) {
        let trimmed = content.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw Self.error("content", "empty_content", "\"content\" must not be empty") }
        guard trimmed.count <= Fact.maximumContentLength else {
            throw Self.error(
                "content", "content_too_long",
                "\"content\" has \(trimmed.count) characters; the maximum is \(Fact.maximumContentLength)")
        }
        update.content = trimmed
    }

    package mutating func setType(_ name: String) throws(FilterValueError) {
        update.type = try FactType.named(name)
    }

    package mutating func setImportance(_ name: String) throws(FilterValueError) {
        update.importance = try Importance.named(name)
    }

    package mutating func setConfidence(_ confidence: Double) throws(FilterValueError) {
        guard (0...1).contains(confidence) else {
            throw Self.error(
                "confidence", "confidence_out_of_range", "\"confidence\" must be between 0 and 1, not \(confidence)")
        }
        update.confidence = confidence
    }

    package mutating func setTopic(_ path: String) throws(FilterValueError) {
        do {
            update.topicPath = try TopicPath(path)
        } catch let .invalidInput(_, reason) {
            throw .badTopic(reason)
        } catch {
            throw .invalid(path, of: .topic)
        }
    }

    /// Sets when the fact expires, from an ISO 8601 date; `nil` removes the expiry.
    package mutating func setExpiresAt(_ text: String?) throws(FilterValueError) {
        guard let text else {
            update.expiresAt = .some(nil)
            return
        }
        guard let date = Timestamp.parse(text) else {
            throw Self.error(
                "expires_at", "bad_date",
                "\"expires_at\" must be an ISO 8601 date such as 2025-01-15T10:30:00Z, not \"\(text)\"")
        }
        update.expiresAt = .some(date)
    }

    /// Fails when the edit changes nothing, naming what it could change: `fields`, the ones the
    /// front door takes.
    package func requireChange(fields: [String] = Self.fields) throws(FilterValueError) {
        guard isEmpty else { return }
        throw Self.error("", "nothing_to_update", "send at least one of \(fields.joined(separator: ", "))")
    }

    private static func error(_ field: String, _ code: String, _ message: String) -> FilterValueError {
        FilterValueError(field: field, code: code, message: message)
    }
}

extension FactType {
    /// The type with this name (ignoring case), or the vocabulary's error for it.
    package static func named(_ name: String) throws(FilterValueError) -> FactType {
        guard let type = FactType(rawValue: name.trimmingBlanks.lowercased()) else {
            throw .unknownWord(name, of: .type, single: true)
        }
        return type
    }
}

extension Importance {
    /// The importance with this name (ignoring case), or the vocabulary's error for it.
    package static func named(_ name: String) throws(FilterValueError) -> Importance {
        guard let importance = Importance(rawValue: name.trimmingBlanks.lowercased()) else {
            throw .unknownWord(name, of: .minImportance, single: true)
        }
        return importance
    }
}
