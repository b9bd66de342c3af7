import Foundation

/// Where a record is in its input: its index from 1 and, when known, the line it starts on.
struct RecordPosition: Hashable, Sendable {
    var record: Int
    var line: Int?

    func rejection(_ problem: RecordProblem) -> IngestRejection {
        IngestRejection(record: record, line: line, code: problem.code, reason: problem.reason)
    }
}

/// What a reader yields for each record of its input.
enum ReadItem {
    /// A record read from the input, not yet checked against the mapping rules.
    /// `nodeTopic` is the topic of its tree node in the `topics` format.
    case record(IngestRecord, RecordPosition, nodeTopic: Result<TopicPath, RecordProblem>? = nil)
    /// A record that could not be read at all.
    case rejected(IngestRejection)
}

/// Reads an input's records one at a time, in input order.
protocol RecordReader {
    /// The next record, or `nil` at the end of the input.
    /// - Throws: ``MnemoError/unreadableInput(_:)`` when the input itself cannot be read.
    mutating func next() throws -> ReadItem?
    /// Bytes of the input consumed so far, for progress.
    var bytesRead: Int { get }
}

/// Parses one JSON value with a reason fit for a rejection when it fails.
enum JSONValue {
    static func parse(_ data: Data) -> Result<Any, RecordProblem> {
        do {
            return .success(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
        } catch {
            return .failure(RecordProblem(.invalidJSON, "invalid JSON: \(detail(of: error))"))
        }
    }

    /// The object, or a `not_an_object` problem naming what it is instead.
    static func object(_ value: Any) -> Result<[String: Any], RecordProblem> {
        guard let object = value as? [String: Any] else {
            return .failure(RecordProblem(.notAnObject, "expected a JSON object, got \(JSONFields.describe(value))"))
        }
        return .success(object)
    }

    /// `JSONSerialization`'s own words ("Invalid value around character 8."), tidied to a clause.
    static func detail(of error: any Error) -> String {
        let nsError = error as NSError
        var text = (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
        if text.hasSuffix(".") { text.removeLast() }
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// The byte offset in "… around character 8 …", when the message has one.
    static func offset(in detail: String) -> Int? {
        guard let range = detail.range(of: "character ") else { return nil }
        return Int(detail[range.upperBound...].prefix(while: \.isNumber))
    }
}

enum UTF8Validation {
    /// Whether the bytes are well-formed UTF-8; ASCII, the common case, is checked in one pass.
    static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
        if bytes.allSatisfy({ $0 < 0x80 }) { return true }
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
