import Foundation
import GRDB

extension Fact {
    /// The columns every fact query selects, in the order ``init(row:)`` reads them.
    static let selection = """
        fact.id, fact.namespace, fact.topic_id, topic.path AS topic_path, fact.content, fact.type,
        fact.importance, fact.confidence, fact.is_active, fact.sources, fact.mention_count,
        fact.created_at, fact.updated_at, fact.expires_at
        """

    /// The join every fact query reads from.
    static let source = "fact JOIN topic ON topic.id = fact.topic_id"

    /// Reads a row whose first columns are ``selection``, by position: GRDB matches a column
    /// name by lower-casing and comparing it with every column's, and those 13 lookups per fact
    /// were a tenth of the time of a whole semantic search.
    init(row: Row) {
        self.init(
            id: row[0],
            namespace: row[1],
            topicID: row[2],
            topicPath: row[3],
            content: row[4],
            type: FactType(rawValue: row[5]) ?? .fact,
            importance: Importance(rank: row[6]) ?? .negligible,
            confidence: row[7],
            isActive: row[8],
            sources: SourceList.decode(row[9]),
            mentionCount: row[10],
            createdAt: row[11],
            updatedAt: row[12],
            expiresAt: row[13]
        )
    }
}

/// Sources are stored as a JSON array of strings in one column.
enum SourceList {
    static func encode(_ sources: [String]) -> String {
        JSONText.array(sources)
    }

    static func decode(_ text: String) -> [String] {
        if let plain = decodePlain(text) { return plain }
        return (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
    }

    /// The common case without a JSONDecoder (which costs more than the rest of reading a
    /// fact): an array of strings with no escapes. Without a backslash every `"` delimits a
    /// string, so the strings are exactly the text between pairs of quotes. `nil` for anything
    /// else, which the decoder then reads.
    static func decodePlain(_ text: String) -> [String]? {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]"),
              !bytes.contains(UInt8(ascii: "\\")) else { return nil }
        var strings: [String] = []
        var start: Int?
        for index in 1..<(bytes.count - 1) {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                if let open = start {
                    strings.append(String(decoding: bytes[(open + 1)..<index], as: UTF8.self))
                    start = nil
                } else {
                    start = index
                }
            } else if start == nil, byte != UInt8(ascii: ","), byte != UInt8(ascii: " "), byte != UInt8(ascii: "\n") {
                return nil
            }
        }
        return start == nil ? strings : nil
    }

    /// The union of two source lists, keeping first-seen order.
    static func merging(_ existing: [String], _ added: [String]) -> [String] {
        var seen = Set(existing)
        return existing + added.filter { seen.insert($0).inserted }
    }
}

extension Topic {
    static let selection = "id, namespace, parent_id, name, path, depth, created_at"

    init(row: Row) {
        self.init(
            id: row["id"],
            namespace: row["namespace"],
            parentID: row["parent_id"],
            name: row["name"],
            path: row["path"],
            depth: row["depth"],
            createdAt: row["created_at"]
        )
    }
}
