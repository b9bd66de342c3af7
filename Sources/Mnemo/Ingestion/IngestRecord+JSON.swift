import Foundation

extension IngestRecord {
    /// Reads a record from a JSON object as `JSONSerialization` returns it.
    ///
    /// Unknown keys are ignored and `null` counts as absent. Content is checked first, so a
    /// record with several problems is reported for the one a reader fixes first.
    init(json object: [String: Any]) throws(RecordProblem) {
        let fields = JSONFields(object: object)
        let lumeGoal = fields.value("content") == nil && fields.value("title") != nil
        if lumeGoal {
            // A Lume goal record: the title (and description) is what the user wants.
            guard let title = try fields.string("title") else {
                throw RecordProblem(.missingContent, #"missing "content""#)
            }
            let description = try fields.string("description")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
            self.init(content: try Self.checked(content: description.isEmpty ? trimmed : trimmed + ": " + description))
            type = .goal
        } else {
            guard let rawContent = fields.value("content") else {
                throw RecordProblem(.missingContent, #"missing "content""#)
            }
            guard let content = rawContent as? String else {
                throw RecordProblem(
                    .wrongFieldType, #""content" must be a string, got \#(JSONFields.typeName(rawContent))"#)
            }
            self.init(content: try Self.checked(content: content))
        }
        topic = try fields.string("topic")
        category = try fields.string("category")
        // Names as every front door reads them, with the same message for a wrong one.
        if let name = try fields.string("type") {
            do {
                self.type = try FactType.named(name)
            } catch {
                throw RecordProblem(.unknownType, error.message)
            }
        }
        if let name = try fields.string("importance") {
            do {
                self.importance = try Importance.named(name)
            } catch {
                throw RecordProblem(.unknownImportance, error.message)
            }
        }
        if let value = fields.value("confidence") {
            guard let number = JSONFields.number(value) else {
                throw RecordProblem(
                    .confidenceNotNumber,
                    "confidence must be a number from 0 to 1, got \(JSONFields.describe(value))")
            }
            try Self.check(confidence: number)
            confidence = number
        }
        if let source = try fields.string("source") { sources.append(source) }
        if let list = fields.value("sources") {
            guard let items = list as? [Any], let strings = items as? [String] else {
                throw RecordProblem(
                    .wrongFieldType, #""sources" must be an array of strings, got \#(JSONFields.describe(list))"#)
            }
            sources.append(contentsOf: strings)
        }
        namespace = try fields.string("namespace")
        createdAt = try fields.date("created_at")
        updatedAt = try fields.date("updated_at")
        expiresAt = try fields.date("expires_at")
        isActive = try fields.bool("is_active")
        if let count = try fields.integer("mention_count") {
            guard count >= 1 else {
                throw RecordProblem(.wrongFieldType, #""mention_count" must be a positive integer, got \#(count)"#)
            }
            mentionCount = Int(count)
        }
        if let name = try fields.string("status") {
            do {
                status = try GoalStatus.named(name)
            } catch {
                throw RecordProblem(.unknownStatus, error.message)
            }
        }
        if let value = fields.value("progress") {
            guard let number = JSONFields.number(value), (0...1).contains(number) else {
                throw RecordProblem(
                    .progressOutOfRange, "progress must be a number from 0 to 1, got \(JSONFields.describe(value))")
            }
            progress = number
        }
        targetDate = try fields.date("target_date")
        if targetDate == nil { targetDate = try fields.date("targetDate") }
        completedAt = try fields.date("completed_at")
        if completedAt == nil { completedAt = try fields.date("completedAt") }
        if lumeGoal, topic == nil, category == nil { topic = "Goals" }
        if let id = try fields.integer("id") {
            guard id >= 1 else { throw RecordProblem(.wrongFieldType, #""id" must be a positive integer, got \#(id)"#) }
            self.id = id
        }
        if let uid = try fields.string("uid") {
            guard let parsed = UUID(uuidString: uid) else {
                throw RecordProblem(.wrongFieldType, #""uid" must be a UUID, got "\#(uid.prefix(64))""#)
            }
            self.uid = parsed.uuidString.lowercased()
        }
    }

    /// The content trimmed, once checked by the one content rule (``FactContent``).
    static func checked(content: String) throws(RecordProblem) -> String {
        do {
            return try FactContent.validated(content)
        } catch {
            throw RecordProblem(error)
        }
    }

    static func check(confidence: Double) throws(RecordProblem) {
        do {
            try FactContent.validate(confidence: confidence)
        } catch {
            throw RecordProblem(error)
        }
    }
}

extension RecordProblem {
    /// A content rule's problem as a rejection reason.
    init(_ problem: FactContent.Problem) {
        switch problem {
        case .empty: self.init(.emptyContent, problem.message)
        case .nulCharacter: self.init(.nulCharacter, problem.message)
        case .tooLong: self.init(.contentTooLong, problem.message)
        case .confidenceOutOfRange: self.init(.confidenceOutOfRange, problem.message)
        }
    }
}

/// Typed access to the fields of a JSON object, with a precise problem for each wrong type.
struct JSONFields {
    let object: [String: Any]

    /// The value at `key`, or `nil` when it is missing or `null`.
    func value(_ key: String) -> Any? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        return value
    }

    func string(_ key: String) throws(RecordProblem) -> String? {
        guard let value = value(key) else { return nil }
        guard let string = value as? String else { throw wrongType(key, "a string", value) }
        return string
    }

    func bool(_ key: String) throws(RecordProblem) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let number = value as? NSNumber, Self.isBoolean(number) else {
            throw wrongType(key, "true or false", value)
        }
        return number.boolValue
    }

    func integer(_ key: String) throws(RecordProblem) -> Int64? {
        guard let value = value(key) else { return nil }
        guard let number = Self.number(value), number.rounded() == number, abs(number) < 9e15,
            let integer = (value as? NSNumber)?.int64Value
        else {
            throw wrongType(key, "an integer", value)
        }
        return integer
    }

    func date(_ key: String) throws(RecordProblem) -> Date? {
        guard let text = try string(key) else { return nil }
        guard let date = Timestamp.parse(text) else {
            throw RecordProblem(
                .badDate, #"bad date "\#(text)" in "\#(key)" (expected ISO 8601, such as 2025-01-15T10:30:00Z)"#)
        }
        return date
    }

    private func wrongType(_ key: String, _ expected: String, _ value: Any) -> RecordProblem {
        RecordProblem(.wrongFieldType, #""\#(key)" must be \#(expected), got \#(Self.describe(value))"#)
    }

    /// A JSON number as a `Double`; `nil` for anything else, booleans included.
    static func number(_ value: Any) -> Double? {
        guard let number = value as? NSNumber, !isBoolean(number) else { return nil }
        return number.doubleValue
    }

    /// `JSONSerialization` returns booleans as `NSNumber`s; only their Objective-C type tells them
    /// apart from the numbers 0 and 1 (`c`, a char, on Darwin and Linux alike).
    static func isBoolean(_ number: NSNumber) -> Bool {
        number.objCType.pointee == CChar(UInt8(ascii: "c"))
    }

    static func typeName(_ value: Any) -> String {
        switch value {
        case is String: "string"
        case let number as NSNumber: isBoolean(number) ? "boolean" : "number"
        case is [Any]: "array"
        case is [String: Any]: "object"
        default: "null"
        }
    }

    /// The value's type and, for short scalars, the value: `string "high"`, `number 3`, `array`.
    static func describe(_ value: Any) -> String {
        switch value {
        case let string as String where string.count <= 40: #"string "\#(string)""#
        case let number as NSNumber: isBoolean(number) ? "boolean \(number.boolValue)" : "number \(number)"
        default: typeName(value)
        }
    }
}
