import Foundation

/// The line on which each record of a JSON document starts.
///
/// `JSONSerialization` returns values without positions. One pass over the bytes finds where
/// every element of a record array starts and files it under its structural path, such as
/// `$.topics[0].children[2].facts[1]`, which the document reader rebuilds as it walks the
/// parsed value. Only elements of record arrays (the root array, and arrays under a key named
/// in `recordArrayKeys`) are indexed, so memory grows with records, not with values.
struct JSONLineIndex {
    private(set) var lines: [String: Int] = [:]

    init(_ data: Data, recordArrayKeys: Set<String>) {
        data.withUnsafeBytes { buffer in
            scan(buffer.bindMemory(to: UInt8.self), recordArrayKeys: recordArrayKeys)
        }
    }

    /// The line where the value at `path` starts, if it was indexed.
    subscript(path: String) -> Int? { lines[path] }

    private enum Container {
        case object(path: String, key: String?)
        case array(path: String, count: Int, indexed: Bool)
    }

    private mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, recordArrayKeys: Set<String>) {
        var stack: [Container] = []
        var line = 1
        var expectingKey = false
        // A UTF-8 byte-order mark is not part of the document.
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0

        /// Registers the start of a value and returns its path.
        func valueStarts() -> String {
            switch stack.last {
            case nil:
                return "$"
            case .object(let path, let key):
                return "\(path).\(key ?? "")"
            case .array(let path, let count, let indexed):
                stack[stack.count - 1] = .array(path: path, count: count + 1, indexed: indexed)
                let elementPath = "\(path)[\(count)]"
                if indexed { lines[elementPath] = line }
                return elementPath
            }
        }

        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
            case UInt8(ascii: "\""):
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                    index += 1
                }
                if expectingKey, case .object(let path, _) = stack.last {
                    let key = String(
                        decoding: UnsafeBufferPointer(rebasing: bytes[start..<min(index, bytes.count)]), as: UTF8.self)
                    stack[stack.count - 1] = .object(path: path, key: key)
                    expectingKey = false
                } else {
                    _ = valueStarts()
                }
                index += 1
            case UInt8(ascii: "{"):
                stack.append(.object(path: valueStarts(), key: nil))
                expectingKey = true
            case UInt8(ascii: "["):
                let path = valueStarts()
                let key = path.hasSuffix("]") ? nil : path.split(separator: ".").last.map(String.init)
                stack.append(
                    .array(path: path, count: 0, indexed: path == "$" || key.map(recordArrayKeys.contains) == true))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = stack.popLast()
                expectingKey = false
            case UInt8(ascii: ","):
                if case .object = stack.last { expectingKey = true }
            case UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                break
            default:
                // A number, true, false or null: one value, however many bytes it spans.
                _ = valueStarts()
                while index < bytes.count, !Self.endsLiteral(bytes[index]) { index += 1 }
            }
        }
    }

    private static func endsLiteral(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: " "), UInt8(ascii: "\n"),
            UInt8(ascii: "\t"), UInt8(ascii: "\r"):
            true
        default:
            false
        }
    }
}
