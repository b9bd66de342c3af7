/// JSON written by hand where `JSONEncoder` would cost more than the work around it: export
/// lines and the small objects stored with every fact and history event.
enum JSONText {
    /// A JSON string literal: quotes, backslashes and control characters escaped, the rest as is.
    static func quoted(_ text: String) -> String {
        // Most texts need no escape: then the literal is the text between quotes.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            return "\"" + text + "\""
        }
        var result = "\""
        result.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// `["a","b"]`.
    static func array(_ strings: [String]) -> String {
        "[" + strings.map(quoted).joined(separator: ",") + "]"
    }

    /// `{"a":"1","b":"2"}`, keys sorted so equal dictionaries give equal text.
    static func object(_ fields: [String: String]) -> String {
        "{" + fields.sorted { $0.key < $1.key }.map { quoted($0.key) + ":" + quoted($0.value) }.joined(separator: ",")
            + "}"
    }
}
