import Foundation

/// Reads the whole-document formats, ``IngestFormat/extracted`` and ``IngestFormat/topics``.
///
/// The document is parsed at once (use JSONL for inputs too large for memory). A document that
/// is not JSON, or whose shape is not the format's, is unreadable as a whole and nothing of it
/// is stored; within a well-shaped document each record is read and rejected on its own.
/// Records are numbered in document order; in a topic tree, a node's facts come before its
/// children's.
struct DocumentReader: RecordReader {
    private struct Entry {
        var path: String
        var value: Any
        var nodeTopic: Result<TopicPath, RecordProblem>?
    }

    private var entries: [Entry] = []
    private var position = 0
    private let lines: JSONLineIndex
    private let size: Int

    /// Parses `data` as `format`.
    /// - Throws: ``MnemoError/unreadableInput(_:)`` when it is not JSON or not shaped like `format`.
    init(data: Data, format: IngestFormat) throws {
        size = data.count
        guard UTF8Validation.isValid(data) else {
            throw MnemoError.unreadableInput("the \(format.rawValue) document is not valid UTF-8")
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw MnemoError.unreadableInput(
                "the \(format.rawValue) document is not valid JSON: \(JSONValue.problem(error, in: data))")
        }
        lines = JSONLineIndex(data, recordArrayKeys: ["extracted", "facts"])
        switch format {
        case .extracted: try collectExtracted(root)
        case .topics: try collectTopics(root)
        case .jsonl: preconditionFailure("JSONL is read line by line")
        }
    }

    /// The document was read at once; progress moves with the records handed out.
    var bytesRead: Int { entries.isEmpty ? size : size * position / entries.count }

    mutating func next() -> ReadItem? {
        guard position < entries.count else { return nil }
        let entry = entries[position]
        position += 1
        let place = RecordPosition(record: position, line: lines[entry.path])
        let record = JSONValue.object(entry.value).flatMap { object in
            Result { () throws(RecordProblem) in try IngestRecord(json: object) }
        }
        switch record {
        case .success(let record): return .record(record, place, nodeTopic: entry.nodeTopic)
        case .failure(let problem): return .rejected(place.rejection(problem))
        }
    }

    /// `{"extracted": [record, …]}` or `[record, …]`.
    private mutating func collectExtracted(_ root: Any) throws {
        let (records, path): (Any?, String) =
            if let object = root as? [String: Any] {
                (object["extracted"], "$.extracted")
            } else {
                (root, "$")
            }
        guard let records = records as? [Any] else {
            throw MnemoError.unreadableInput(#"expected {"extracted": [records]} or an array of records"#)
        }
        entries = records.enumerated().map { Entry(path: "\(path)[\($0.offset)]", value: $0.element) }
    }

    /// `{"topics": [node, …]}` or `[node, …]`, nodes nested through `children`.
    private mutating func collectTopics(_ root: Any) throws {
        let (nodes, path): (Any?, String) =
            if let object = root as? [String: Any] {
                (object["topics"], "$.topics")
            } else {
                (root, "$")
            }
        guard let nodes = nodes as? [Any] else {
            throw MnemoError.unreadableInput(
                #"expected {"topics": [nodes]} where a node has "path" or "name", "facts" and "children""#)
        }
        for (index, node) in nodes.enumerated() {
            try collect(node: node, path: "\(path)[\(index)]", parent: nil)
        }
    }

    private mutating func collect(node value: Any, path: String, parent: Result<TopicPath, RecordProblem>?) throws {
        guard let node = value as? [String: Any] else {
            throw MnemoError.unreadableInput(
                "the topic node at \(path) is \(JSONFields.describe(value)), not an object")
        }
        let topic = Self.topic(of: node, path: path, parent: parent)
        let facts = try Self.array(node, "facts", at: path)
        for (index, fact) in facts.enumerated() {
            entries.append(Entry(path: "\(path).facts[\(index)]", value: fact, nodeTopic: topic))
        }
        for (index, child) in try Self.array(node, "children", at: path).enumerated() {
            try collect(node: child, path: "\(path).children[\(index)]", parent: topic)
        }
    }

    private static func array(_ node: [String: Any], _ key: String, at path: String) throws -> [Any] {
        guard let value = node[key], !(value is NSNull) else { return [] }
        guard let array = value as? [Any] else {
            throw MnemoError.unreadableInput(
                #""\#(key)" of the topic node at \#(path) must be an array, got \#(JSONFields.describe(value))"#)
        }
        return array
    }

    /// A node's topic: its `path` from the root, else its `name` under its parent's topic. A
    /// node under a bad one is bad too: its facts are rejected with the ancestor's reason.
    private static func topic(of node: [String: Any], path: String, parent: Result<TopicPath, RecordProblem>?)
        -> Result<TopicPath, RecordProblem>
    {
        if case .failure = parent { return parent! }
        return Result { () throws(RecordProblem) in
            let fields = JSONFields(object: node)
            if let full = try fields.string("path") {
                return try IngestRecord.topicPath(full, field: "topic path")
            }
            guard let name = try fields.string("name") else {
                throw RecordProblem(.badTopic, #"the topic node at \#(path) has no "path" or "name""#)
            }
            if name.contains("/") {
                throw RecordProblem(
                    .badTopic, #"bad topic name "\#(name)": a name cannot contain "/" (use "path" for a full path)"#)
            }
            let segment = try IngestRecord.topicPath(name, field: "topic name")
            guard case .success(let parentPath) = parent else { return segment }
            return TopicPath(validSegments: parentPath.segments + segment.segments)
        }
    }
}
