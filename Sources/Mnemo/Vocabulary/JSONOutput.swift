import Foundation

/// Mnemo's compact JSON answers written straight to UTF-8 bytes: the text
/// ``Foundation/JSONEncoder/mnemoOutput(pretty:wholeSeconds:)`` writes without `pretty`, byte for
/// byte, for the answers a server writes thousands of times a second.
///
/// `JSONEncoder` builds a tree of every value, converts every key to snake_case and sorts every
/// object's keys on each call: a search's ten hits cost more to encode than to find. The
/// vocabulary types that a server answers most (``FactJSON``, ``SearchResultsJSON``) list their
/// fields once as ``JSONOutput.Fields``, whose keys are their `CodingKeys` (already snake_case) sorted
/// once; writing walks that list.
///
/// The generic writers (an object's fields, an array) are `@inlinable`, so that the module that
/// lists a type's fields specializes them for it: called across the module boundary unspecialized,
/// they took 10–15 % of a server's listing. What they reach is `@usableFromInline` for that.
@usableFromInline
package struct JSONOutput {
    /// The text written so far (settable in the package so that the generic writers below can be
    /// inlined, and so specialized, in the modules whose types they write).
    @usableFromInline
    package var bytes: [UInt8] = []
    /// Dates cut to whole seconds, as ``Foundation/JSONEncoder/mnemoOutput(pretty:wholeSeconds:)``'s option.
    @usableFromInline
    package let wholeSeconds: Bool

    @usableFromInline
    package init(wholeSeconds: Bool, capacity: Int = 1_024) {
        self.wholeSeconds = wholeSeconds
        bytes.reserveCapacity(capacity)
    }

    /// `value`'s JSON text.
    /// - Throws: `EncodingError.invalidValue` for a number that is not finite, as `JSONEncoder` does.
    @inlinable
    package static func bytes(of value: some JSONWritable, wholeSeconds: Bool) throws -> [UInt8] {
        var output = JSONOutput(wholeSeconds: wholeSeconds)
        try value.write(to: &output)
        return output.bytes
    }

    /// A string literal, escaped as `JSONEncoder` escapes (slashes and non-ASCII text as is).
    @usableFromInline
    package mutating func write(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                appendEscape(of: byte)
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(of byte: UInt8) {
        let named: UInt8? =
            switch byte {
            case UInt8(ascii: "\""): UInt8(ascii: "\"")
            case UInt8(ascii: "\\"): UInt8(ascii: "\\")
            case 0x08: UInt8(ascii: "b")
            case 0x09: UInt8(ascii: "t")
            case 0x0A: UInt8(ascii: "n")
            case 0x0C: UInt8(ascii: "f")
            case 0x0D: UInt8(ascii: "r")
            default: nil
            }
        bytes.append(UInt8(ascii: "\\"))
        if let named {
            bytes.append(named)
        } else {
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)]])
            bytes.append(hex[Int(byte & 0xF)])
        }
    }

    @usableFromInline
    package mutating func write(_ value: Int64) {
        bytes.append(contentsOf: String(value).utf8)
    }

    @usableFromInline
    package mutating func write(_ value: Bool) {
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// A number as `JSONEncoder` writes a `Double`: its shortest description, without `.0`.
    /// - Throws: `EncodingError.invalidValue` for infinity or NaN, which JSON cannot hold.
    @usableFromInline
    package mutating func write(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "\(value) is not a JSON number"))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// A date as ``Timestamp`` text in UTC.
    @usableFromInline
    package mutating func write(_ date: Date) {
        bytes.append(UInt8(ascii: "\""))
        Timestamp.appendOutput(date, wholeSeconds: wholeSeconds, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// `[element, …]`.
    @inlinable
    package mutating func write<Element: JSONWritable>(_ elements: [Element]) throws {
        bytes.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            try element.write(to: &self)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// `{"key": value, …}` with `fields` of `root`, in their (sorted) order.
    @inlinable
    package mutating func write<Root>(_ root: Root, fields: JSONOutput.Fields<Root>) throws {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for field in fields.sorted { try field.write(root, &self, &first) }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Starts an object's field: the separator unless it is the first, then `"key":`.
    @inlinable
    package mutating func startField(_ key: [UInt8], first: inout Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(contentsOf: key)
    }
}

/// A value ``JSONOutput`` writes.
@usableFromInline
package protocol JSONWritable {
    func write(to output: inout JSONOutput) throws
}

/// A JSON object whose fields are listed once, with the keys of its `Encodable` conformance.
@usableFromInline
package protocol JSONObjectWritable: JSONWritable {
    static var jsonFields: JSONOutput.Fields<Self> { get }
}

extension JSONObjectWritable {
    @inlinable
    package func write(to output: inout JSONOutput) throws {
        try output.write(self, fields: Self.jsonFields)
    }
}

extension String: JSONWritable {
    @usableFromInline
    package func write(to output: inout JSONOutput) { output.write(self) }
}

extension Int64: JSONWritable {
    @usableFromInline
    package func write(to output: inout JSONOutput) { output.write(self) }
}

extension Int: JSONWritable {
    @usableFromInline
    package func write(to output: inout JSONOutput) { output.write(Int64(self)) }
}

extension Bool: JSONWritable {
    @usableFromInline
    package func write(to output: inout JSONOutput) { output.write(self) }
}

extension Double: JSONWritable {
    @usableFromInline
    package func write(to output: inout JSONOutput) throws { try output.write(self) }
}

extension Date: JSONWritable {
    @usableFromInline
    package func write(to output: inout JSONOutput) { output.write(self) }
}

extension Array: JSONWritable where Element: JSONWritable {
    @inlinable
    package func write(to output: inout JSONOutput) throws { try output.write(self) }
}

extension JSONWritable where Self: RawRepresentable, RawValue == String {
    @usableFromInline
    package func write(to output: inout JSONOutput) { output.write(rawValue) }
}

extension FactType: JSONWritable {}
extension Importance: JSONWritable {}
extension GoalStatus: JSONWritable {}
extension SearchMode: JSONWritable {}
