extension JSONOutput {
    /// A field of a JSON object: its key (a `CodingKeys` case of the object's `Encodable`
    /// conformance) and how to write its value.
    @usableFromInline
    package struct Field<Root>: Sendable {
        /// The key.
        @usableFromInline let name: String
        /// Writes the field unless its value is absent; the flag is whether it is the object's first.
        @usableFromInline let write: @Sendable (Root, inout JSONOutput, inout Bool) throws -> Void

        @usableFromInline
        init(name: String, write: @escaping @Sendable (Root, inout JSONOutput, inout Bool) throws -> Void) {
            self.name = name
            self.write = write
        }

        /// A field always written, as `Encodable`'s `encode(_:forKey:)`. Inlinable, so that the
        /// value's writer is specialized where the field is listed.
        @inlinable
        package init<Value: JSONWritable>(_ key: some CodingKey, _ value: @escaping @Sendable (Root) -> Value) {
            let bytes = Self.keyBytes(key.stringValue)
            self.init(name: key.stringValue) { root, output, first in
                output.startField(bytes, first: &first)
                try value(root).write(to: &output)
            }
        }

        /// A field left out when its value is `nil`, as `Encodable`'s `encodeIfPresent(_:forKey:)`.
        @inlinable
        package init<Value: JSONWritable>(_ key: some CodingKey, ifPresent value: @escaping @Sendable (Root) -> Value?)
        {
            let bytes = Self.keyBytes(key.stringValue)
            self.init(name: key.stringValue) { root, output, first in
                guard let value = value(root) else { return }
                output.startField(bytes, first: &first)
                try value.write(to: &output)
            }
        }

        /// `"name":` (keys are snake_case: nothing to escape).
        @usableFromInline
        static func keyBytes(_ name: String) -> [UInt8] {
            Array("\"\(name)\":".utf8)
        }

        /// This field, of the value that `part` lends from a larger root.
        func lifted<Outer>(_ part: @escaping Lending<Outer>) -> Field<Outer> {
            let write = self.write
            return Field<Outer>(name: name) { outer, output, first in
                try part(outer) { root in try write(root, &output, &first) }
            }
        }

        /// Passes a part of an outer value to a body, as `{ hit, body in try body(hit.fact) }`:
        /// lent, where a closure returning the part would copy it (a fact's strings retained
        /// and released once per field, a tenth of the time of writing a search's answer).
        @usableFromInline
        package typealias Lending<Outer> = @Sendable (Outer, (Root) throws -> Void) throws -> Void
    }

    /// A JSON object's fields, sorted by key once, as `JSONEncoder`'s `.sortedKeys` sorts them
    /// on every call (by UTF-8 bytes: snake_case keys hold no digits or capitals, which its
    /// other rules would order).
    @usableFromInline
    package struct Fields<Root>: Sendable {
        @usableFromInline let sorted: [Field<Root>]

        /// - Precondition: no two fields have the same key.
        @usableFromInline
        package init(_ fields: [Field<Root>]) {
            sorted = fields.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            precondition(zip(sorted, sorted.dropFirst()).allSatisfy { $0.name != $1.name }, "two fields share a key")
        }

        /// These fields, of the value that `part` lends from a larger root: for an object that writes another's
        /// keys among its own (a search hit, the fact's).
        @usableFromInline
        package func lifted<Outer>(_ part: @escaping Field<Root>.Lending<Outer>) -> [Field<Outer>] {
            sorted.map { $0.lifted(part) }
        }
    }
}
