import Foundation

/// A piece of HTML that is safe to send: built only from literal markup and from text that went
/// through ``escape(_:)``. Every value a page shows (a fact is user text) is interpolated as a
/// `String` and therefore escaped; markup is interpolated as `HTML` and kept as it is: in the
/// `HTML` literal `"<td>\(fact.content)</td>"`, a fact `<script>` becomes `&lt;script&gt;`.
struct HTML: ExpressibleByStringInterpolation, Sendable, Equatable {
    private(set) var text: String

    init(stringLiteral literal: String) { text = literal }

    init(stringInterpolation: Interpolation) { text = stringInterpolation.text }

    /// Markup already safe, for the few constants the page builds by hand.
    init(trusted markup: String) { text = markup }

    struct Interpolation: StringInterpolationProtocol {
        var text = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        mutating func appendLiteral(_ literal: String) { text += literal }

        /// Text: escaped.
        mutating func appendInterpolation(_ value: String) { HTML.escape(value, into: &text) }

        /// Text: escaped.
        mutating func appendInterpolation(_ value: Substring) { HTML.escape(value, into: &text) }

        /// A number, which needs no escaping.
        mutating func appendInterpolation<Number: BinaryInteger>(_ value: Number) { text += String(value) }

        /// Markup: kept.
        mutating func appendInterpolation(_ value: HTML) { text += value.text }

        /// Markup pieces: kept, in order.
        mutating func appendInterpolation(_ values: [HTML]) {
            for value in values { text += value.text }
        }

        /// Nothing when `nil`.
        mutating func appendInterpolation(_ value: HTML?) { text += value?.text ?? "" }
    }

    /// `text` with the five characters that HTML gives a meaning escaped, for element content and
    /// double- or single-quoted attribute values alike.
    static func escape(_ text: some StringProtocol) -> String {
        var escaped = ""
        escape(text, into: &escaped)
        return escaped
    }

    static func escape(_ text: some StringProtocol, into output: inout String) {
        // Most text needs no escaping: append it whole.
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 })
        else {
            output += text
            return
        }
        for character in text.unicodeScalars {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.unicodeScalars.append(character)
            }
        }
    }
}

extension DefaultStringInterpolation {
    /// Markup in a `String` would be printed as a debug description and then escaped: a literal
    /// that holds markup must be an `HTML` literal. Unavailable, so that such a literal does not
    /// compile, and so that a literal whose type is left to inference (a ternary's branches) is
    /// taken as `HTML`.
    @available(*, unavailable, message: "markup goes into an HTML literal, not a String")
    mutating func appendInterpolation(_ value: HTML) {}

    @available(*, unavailable, message: "markup goes into an HTML literal, not a String")
    mutating func appendInterpolation(_ value: [HTML]) {}

    @available(*, unavailable, message: "markup goes into an HTML literal, not a String")
    mutating func appendInterpolation(_ value: HTML?) {}
}

extension [HTML] {
    /// The pieces one after another.
    var joined: HTML { HTML(trusted: map(\.text).joined()) }
}

/// A URL's query string built from names and values, percent-encoded as forms encode them, for
/// the links that keep a view's filters (its bookmarkable URL).
struct PageQuery {
    private(set) var items: [(String, String)] = []

    init(_ items: [(String, String)] = []) {
        self.items = items
    }

    mutating func append(_ name: String, _ value: String?) {
        guard let value, !value.isEmpty else { return }
        items.append((name, value))
    }

    /// `?a=1&b=2`, or the empty string when there is nothing.
    var text: String {
        guard !items.isEmpty else { return "" }
        return "?" + items.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
    }

    /// Unreserved characters kept, everything else percent-encoded (a space too, so `+` is never ambiguous).
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
