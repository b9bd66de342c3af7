import Foundation

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
            !bytes.contains(UInt8(ascii: "\\"))
        else { return nil }
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
