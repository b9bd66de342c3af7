/// A value a front door was given for a ``FilterField`` that the field does not take.
///
/// Its ``message`` is the same wherever the value came from — a CLI option, a REPL filter, an
/// HTTP query or body field, an MCP argument — and says what the field takes:
/// `unknown type "opinion" (expected fact, preference, goal or experience; several with commas)`.
package struct FilterValueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The field, by its vocabulary name (`type`, `min_similarity`).
    package var field: String
    /// A stable, machine-readable code: `unknown_type`, `unknown_importance`, `unknown_mode`,
    /// `bad_topic`, `invalid_parameter` or `unknown_parameter`.
    package var code: String
    /// What is wrong, for a person.
    package var message: String

    package init(field: String, code: String, message: String) {
        self.field = field
        self.code = code
        self.message = message
    }

    package var description: String { message }

    /// A value that is not one of the field's words, with a guess at what was meant.
    /// - Parameter single: the field takes one value here (a fact's type), not a list.
    static func unknownWord(_ value: String, of field: FilterField, single: Bool = false) -> FilterValueError {
        guard !value.isEmpty else {
            return FilterValueError(
                field: field.rawValue, code: field.errorCode,
                message: "\(field.rawValue) has an empty value (expected \(field.valueHelp))")
        }
        let expected = single ? FilterField.alternatives(field.valueWords) : field.valueHelp
        var message = "unknown \(field.noun) \"\(value)\" (expected \(expected))"
        if let guess = SpellingHint.suggestion(for: value, among: field.valueWords) {
            message += "; did you mean \(guess)?"
        }
        return FilterValueError(field: field.rawValue, code: field.errorCode, message: message)
    }

    /// A value of the right kind but outside what the field takes.
    static func invalid(_ value: String, of field: FilterField, _ reason: String? = nil) -> FilterValueError {
        let value = value.isEmpty ? "an empty value" : "\"\(value)\""
        let message = "\(field.rawValue) takes \(field.valueHelp), not \(value)" + (reason.map { ": \($0)" } ?? "")
        return FilterValueError(field: field.rawValue, code: field.errorCode, message: message)
    }

    /// A text that is not a topic path, with the reason.
    static func badTopic(_ reason: String) -> FilterValueError {
        FilterValueError(
            field: FilterField.topic.rawValue, code: FilterField.topic.errorCode,
            message: "topic is not a topic path: \(reason)")
    }

    /// A parameter no front door knows.
    package static func unknownParameter(_ name: String, known: [String]) -> FilterValueError {
        var message = "unknown parameter \"\(name)\" (expected \(FilterField.alternatives(known)))"
        if let guess = SpellingHint.suggestion(for: name, among: known) { message += "; did you mean \(guess)?" }
        return FilterValueError(field: name, code: "unknown_parameter", message: message)
    }
}
