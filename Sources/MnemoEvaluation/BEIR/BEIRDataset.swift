import Foundation

/// A retrieval test collection in the BEIR layout:
///
/// ```
/// corpus.jsonl      {"_id": "4983", "title": "…", "text": "…"} one document a line
/// queries.jsonl     {"_id": "1", "text": "…"} one query a line
/// qrels/test.tsv    query-id <tab> corpus-id <tab> score, after a header line
/// ```
///
/// Only the queries that have judgements in the split's qrels are kept, in the order of
/// `queries.jsonl`, as BEIR evaluates them.
public struct BEIRDataset: Sendable {
    public struct Document: Hashable, Sendable {
        public var id: String
        public var title: String
        public var text: String

        public init(id: String, title: String, text: String) {
            self.id = id
            self.title = title
            self.text = text
        }
    }

    public struct Query: Hashable, Sendable {
        public var id: String
        public var text: String

        public init(id: String, text: String) {
            self.id = id
            self.text = text
        }
    }

    /// The folder's name, such as `scifact`.
    public var name: String
    public var documents: [Document]
    /// The judged queries.
    public var queries: [Query]
    /// Graded relevance: query id → document id → grade (0 means judged not relevant).
    public var qrels: [String: [String: Int]]

    public init(name: String, documents: [Document], queries: [Query], qrels: [String: [String: Int]]) {
        self.name = name
        self.documents = documents
        self.queries = queries
        self.qrels = qrels
    }

    /// Loads the folder at `folder`, with the judgements of `qrels/<split>.tsv`.
    /// - Throws: ``EvaluationError`` naming the file and line of the first problem.
    public init(contentsOf folder: URL, split: String = "test") throws {
        let corpusURL = folder.appendingPathComponent("corpus.jsonl")
        let queriesURL = folder.appendingPathComponent("queries.jsonl")
        let qrelsURL = folder.appendingPathComponent("qrels").appendingPathComponent("\(split).tsv")
        let qrels = try Self.readQrels(qrelsURL)
        let documents = try Self.readJSONLines(corpusURL) { (record: Record, _) in
            Document(id: record.id, title: record.title ?? "", text: record.text ?? "")
        }
        let queries = try Self.readJSONLines(queriesURL) { (record: Record, _) in
            Query(id: record.id, text: record.text ?? "")
        }.filter { qrels[$0.id] != nil }
        guard !queries.isEmpty else {
            throw EvaluationError.invalidDataset("no query in \(queriesURL.path) has judgements in \(qrelsURL.path)")
        }
        self.init(
            name: folder.standardizedFileURL.lastPathComponent, documents: documents, queries: queries, qrels: qrels)
    }

    /// One line of `corpus.jsonl` or `queries.jsonl`; BEIR ids are strings, a few files use numbers.
    private struct Record: Decodable {
        var id: String
        var title: String?
        var text: String?

        enum CodingKeys: String, CodingKey {
            case id = "_id"
            case title, text
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let number = try? container.decode(Int.self, forKey: .id) {
                id = String(number)
            } else {
                id = try container.decode(String.self, forKey: .id)
            }
            title = try container.decodeIfPresent(String.self, forKey: .title)
            text = try container.decodeIfPresent(String.self, forKey: .text)
        }
    }

    private static func lines(of url: URL) throws -> [Substring] {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw EvaluationError.invalidDataset("cannot read \(url.path)")
        }
        // Empty lines are kept so that line numbers in errors match an editor's.
        return String(decoding: data, as: UTF8.self).split(
            omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    }

    private static func readJSONLines<Value>(_ url: URL, _ make: (Record, Int) -> Value) throws -> [Value] {
        let decoder = JSONDecoder()
        var values: [Value] = []
        for (index, line) in try lines(of: url).enumerated() where !line.allSatisfy(\.isWhitespace) {
            do {
                values.append(make(try decoder.decode(Record.self, from: Data(line.utf8)), index + 1))
            } catch {
                throw EvaluationError.invalidDataset(
                    "\(url.lastPathComponent) line \(index + 1): not a record with an \"_id\"")
            }
        }
        return values
    }

    private static func readQrels(_ url: URL) throws -> [String: [String: Int]] {
        var qrels: [String: [String: Int]] = [:]
        for (index, line) in try lines(of: url).enumerated() where !line.allSatisfy(\.isWhitespace) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            // The first line is the header "query-id corpus-id score".
            if index == 0, fields.count >= 3, Int(fields[2]) == nil { continue }
            guard fields.count >= 3, let grade = Int(fields[2]) else {
                throw EvaluationError.invalidDataset(
                    "\(url.lastPathComponent) line \(index + 1): expected query-id, corpus-id and an integer score")
            }
            qrels[fields[0], default: [:]][fields[1]] = grade
        }
        return qrels
    }
}

/// A failure to load or evaluate a test collection.
public enum EvaluationError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    case invalidDataset(String)
    case invalidCache(String)

    public var description: String {
        switch self {
        case .invalidDataset(let reason): "invalid BEIR dataset: \(reason)"
        case .invalidCache(let reason): "invalid embedding cache: \(reason)"
        }
    }

    public var errorDescription: String? { description }
}
