import Foundation

/// A change to a fact as the front doors describe it — `mnemo fact update`, `PATCH` on the HTTP
/// routes, the MCP `update_fact` tool — parsed with one message per wrong value.
package struct FactEdit: Hashable, Sendable {
    /// The field changes.
    package var update = FactUpdate()
    /// The new active state, when the edit sets one.
    package var isActive: Bool?

    /// The fields an edit may set, by their vocabulary names.
    package static let fields = FactField.allCases.map(\.rawValue)

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

    /// Sets a goal's status from its name.
    package mutating func setStatus(_ name: String) throws(FilterValueError) {
        update.status = try GoalStatus.named(name)
    }

    /// Sets a goal's progress, a share from 0 to 1.
    package mutating func setProgress(_ progress: Double) throws(FilterValueError) {
        guard progress.isFinite, (0...1).contains(progress) else {
            throw Self.error(
                "progress", "progress_out_of_range", "\"progress\" must be between 0 and 1, not \(progress)")
        }
        update.progress = progress
    }

    /// Sets when a goal is due, from an ISO 8601 date (a day such as 2026-03-31 is its start);
    /// `nil` removes the date.
    package mutating func setTargetDate(_ text: String?) throws(FilterValueError) {
        guard let text else {
            update.targetDate = .some(nil)
            return
        }
        guard let date = Timestamp.parse(text) ?? TimeBound(text)?.resolved(as: .since, now: Date()) else {
            throw Self.error(
                "target_date", "bad_date",
                "\"target_date\" must be an ISO 8601 date such as 2026-03-31 or 2026-03-31T12:00:00Z, not \"\(text)\"")
        }
        update.targetDate = .some(date)
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

extension GoalStatus {
    /// The status with this name (ignoring case), or the vocabulary's error for it, which names
    /// the accepted statuses.
    package static func named(_ name: String) throws(FilterValueError) -> GoalStatus {
        guard let status = GoalStatus(rawValue: name.trimmingBlanks.lowercased()) else {
            throw .unknownWord(name, of: .status, single: true)
        }
        return status
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
