import Foundation

extension JSONEncoder {
    /// The encoder of Mnemo's JSON answers — `mnemo … --json`, the MCP tools and the HTTP
    /// server — so that they share one convention: snake_case keys in sorted order, slashes left
    /// unescaped (topic paths), dates as ``Timestamp`` text in UTC.
    ///
    /// - Parameters:
    ///   - pretty: Indented output, for people reading a terminal or a tool answer.
    ///   - wholeSeconds: Dates cut to whole seconds (`2024-01-15T10:30:00Z`), for clients that
    ///     decode with `JSONDecoder`'s `.iso8601` strategy, which refuses a fraction.
    package static func mnemoOutput(pretty: Bool, wholeSeconds: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty
            ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            : [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.output(date, wholeSeconds: wholeSeconds))
        }
        return encoder
    }
}
