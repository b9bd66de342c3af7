import Foundation

/// Where a record is in its input: its index from 1 and, when known, the line it starts on.
struct RecordPosition: Hashable, Sendable {
    var record: Int
    var line: Int?

    func rejection(_ problem: RecordProblem) -> IngestRejection {
        IngestRejection(record: record, line: line, code: problem.code, reason: problem.reason)
    }

    /// The rejection of a valid record that would have added a fact to a full namespace.
    func quotaRejection(limit: Int) -> IngestRejection {
        rejection(
            RecordProblem(
                .quotaExceeded, "the namespace holds its limit of \(limit) facts; this record would add a new one"))
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

/// The reader of an input in `format`: a whole document parsed at once, or JSONL streamed line
/// by line.
func recordReader(_ format: IngestFormat, of chunks: ByteChunks, maximumLineLength: Int) throws
    -> any RecordReader
{
    var chunks = chunks
    return format.isWholeDocument
        ? try DocumentReader(data: chunks.readAll(), format: format)
        : JSONLReader(chunks: chunks, maximumLineLength: maximumLineLength)
}

/// Parses one JSON value with a reason fit for a rejection when it fails.
enum JSONValue {
    static func parse(_ data: Data) -> Result<Any, RecordProblem> {
        do {
            return .success(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
        } catch {
            return .failure(RecordProblem(.invalidJSON, "invalid JSON: \(problem(error, in: data))"))
        }
    }

    /// The object, or a `not_an_object` problem naming what it is instead.
    static func object(_ value: Any) -> Result<[String: Any], RecordProblem> {
        guard let object = value as? [String: Any] else {
            return .failure(RecordProblem(.notAnObject, "expected a JSON object, got \(JSONFields.describe(value))"))
        }
        return .success(object)
    }

    /// What `JSONSerialization` found wrong, with its place as a line and column where it gives
    /// one: "invalid value at line 3, column 7" (just "column 7" when `data` is one line).
    static func problem(_ error: any Error, in data: Data) -> String {
        let nsError = error as NSError
        var text = (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
        if text.hasSuffix(".") { text.removeLast() }
        text = text.prefix(1).lowercased() + text.dropFirst()
        // Linux's Foundation says "around character 8", a byte offset from 0.
        guard let range = text.range(of: " around character "),
            let offset = Int(text[range.upperBound...].prefix(while: \.isNumber))
        else { return text }
        let before = data.prefix(offset)
        let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let column = offset - (before.lastIndex(of: 0x0A).map { $0 - data.startIndex + 1 } ?? 0) + 1
        let place = line == 1 && !data.contains(0x0A) ? "column \(column)" : "line \(line), column \(column)"
        return text[..<range.lowerBound] + " at " + place
    }
}

enum UTF8Validation {
    /// Whether the bytes are well-formed UTF-8; ASCII, the common case, is checked in one pass.
    static func isValid(_ data: Data) -> Bool {
        data.withUnsafeBytes { isValid($0.bindMemory(to: UInt8.self)) }
    }

    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
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
