import GRDB

/// Marks a text query's words and phrases in fact content: `Prefers [SwiftUI] over UIKit…`.
///
/// The content is split by the full-text index's own tokenizer, so a word is marked exactly when
/// the index matched it (same stems, case and diacritic folding). Working on the content already
/// read for the page costs a few microseconds a fact; FTS5's `snippet()` would need a second pass
/// over every match of the query to reach the page's rows.
struct SnippetMaker {
    /// The most tokens a snippet shows; longer content is cut to the window with the most
    /// matches, marked `…` where it was cut.
    static let windowSize = 16

    /// The tokenizer of `fact_fts` (see ``Schema``).
    static let tokenizer = FTS5TokenizerDescriptor(components: ["porter", "unicode61", "remove_diacritics", "2"])

    private let tokenizer: any FTS5Tokenizer
    /// Each query phrase as index tokens, in the query's order (empty for a phrase without any).
    private let phrases: [[String]]

    /// A maker for the access to `db` it is made in; it must not outlive that access, because
    /// its tokenizer is the connection's (see ``ConnectionTokenizers``).
    init(_ db: Database, query: TextQuery) throws {
        let tokenizer = try ConnectionTokenizers.shared.tokenizer(of: db)
        self.tokenizer = tokenizer
        phrases = query.phrases
            .map { words in
                Token.all(in: Array(words.joined(separator: " ").utf8), tokenizer: tokenizer, for: .query).map(\.text)
            }
    }

    /// Whether `text` holds each of the query's phrases, in the query's order: what the index
    /// matches in it (``TextSearcher/wordCoverage(_:query:facts:)`` weighs hits by it).
    func heldPhrases(in text: String) -> [Bool] {
        let tokens = Token.all(in: Array(text.utf8), tokenizer: tokenizer, for: .document)
        return phrases.map { Self.starts(of: $0, in: tokens).first != nil }
    }

    /// `content` with the query's phrases in `[` and `]`, cut to ``windowSize`` tokens.
    func snippet(_ content: String) -> String {
        marking(content).snippet
    }

    /// ``snippet(_:)`` and ``heldPhrases(in:)`` of `content`, from one split of it: a text search
    /// needs both for each hit, and splitting the content twice cost a twentieth of its CPU.
    func marking(_ content: String) -> (snippet: String, heldPhrases: [Bool]) {
        let bytes = Array(content.utf8)
        let tokens = Token.all(in: bytes, tokenizer: tokenizer, for: .document)
        let occurrences = phrases.map { phrase in Self.starts(of: phrase, in: tokens).map { $0..<$0 + phrase.count } }
        // A longer match first where two start together: it is the one marked.
        let matches = occurrences.joined().sorted {
            ($0.lowerBound, -$0.upperBound) < ($1.lowerBound, -$1.upperBound)
        }
        return (snippet(bytes, tokens: tokens, matches: matches), occurrences.map { !$0.isEmpty })
    }

    /// The snippet of the text `bytes`, split into `tokens`, with `matches` (token ranges in
    /// order of position) marked.
    private func snippet(_ bytes: [UInt8], tokens: [Token], matches: [Range<Int>]) -> String {
        let window = self.window(tokens: tokens.count, matches: matches)
        var snippet: [UInt8] = []
        snippet.reserveCapacity(bytes.count + 16)
        var position = window.lowerBound == 0 ? 0 : tokens[window.lowerBound].bytes.lowerBound
        if window.lowerBound > 0 { snippet += "…".utf8 }
        for match in matches where window.contains(match.lowerBound) {
            let marked =
                tokens[match.lowerBound].bytes
                .lowerBound..<tokens[min(match.upperBound, window.upperBound) - 1].bytes.upperBound
            guard marked.lowerBound >= position else { continue } // Inside the previous mark.
            snippet += bytes[position..<marked.lowerBound]
            snippet.append(UInt8(ascii: "["))
            snippet += bytes[marked]
            snippet.append(UInt8(ascii: "]"))
            position = marked.upperBound
        }
        let end = window.upperBound == tokens.count ? bytes.count : tokens[window.upperBound - 1].bytes.upperBound
        snippet += bytes[min(position, end)..<end]
        if window.upperBound < tokens.count { snippet += "…".utf8 }
        return String(decoding: snippet, as: UTF8.self)
    }

    /// Where `phrase` starts in `tokens`, lazily; nowhere for an empty phrase.
    private static func starts(of phrase: [String], in tokens: [Token]) -> LazyFilterSequence<Range<Int>> {
        let last = phrase.isEmpty ? -1 : tokens.count - phrase.count
        return (0..<max(0, last + 1)).lazy.filter { start in
            phrase.indices.allSatisfy { tokens[start + $0].text == phrase[$0] }
        }
    }

    /// The tokens to show: all when they fit; otherwise the window that starts at a match and
    /// holds the most matches, moved left to centre them.
    private func window(tokens count: Int, matches: [Range<Int>]) -> Range<Int> {
        let size = Self.windowSize
        guard count > size else { return 0..<count }
        guard let first = matches.first else { return 0..<size }
        var best = (start: first.lowerBound, covered: 0, last: first.upperBound)
        for match in matches {
            let inside = matches.filter {
                $0.lowerBound >= match.lowerBound && $0.upperBound <= match.lowerBound + size
            }
            if inside.count > best.covered {
                best = (match.lowerBound, inside.count, inside.map(\.upperBound).max() ?? match.upperBound)
            }
        }
        let slack = max(0, size - (best.last - best.start))
        let start = max(0, min(best.start - slack / 2, count - size))
        return start..<start + size
    }

    /// A token and where it sits in the text, in UTF-8 bytes.
    struct Token {
        var text: String
        var bytes: Range<Int>

        /// The tokens of the UTF-8 text `utf8`.
        static func all(in utf8: [UInt8], tokenizer: any FTS5Tokenizer, for tokenization: FTS5Tokenization) -> [Token] {
            var collector = Collector()
            guard !utf8.isEmpty else { return [] }
            utf8.withUnsafeBufferPointer { buffer in
                withUnsafeMutablePointer(to: &collector) { collector in
                    _ = buffer.withMemoryRebound(to: CChar.self) { text in
                        tokenizer.tokenize(
                            context: collector, tokenization: tokenization, pText: UnsafePointer(text.baseAddress),
                            nText: Int32(text.count)
                        ) { collector, _, token, length, start, end in
                            guard let collector, let token else { return 0 }
                            let bytes = UnsafeRawBufferPointer(start: token, count: Int(length))
                            collector.assumingMemoryBound(to: Collector.self).pointee.tokens.append(
                                Token(text: String(decoding: bytes, as: UTF8.self), bytes: Int(start)..<Int(end)))
                            return 0
                        }
                    }
                }
            }
            return collector.tokens
        }

        private struct Collector {
            var tokens: [Token] = []
        }
    }
}

/// Each connection's tokenizer of `fact_fts`, made once. Making one prepares a statement to reach
/// FTS5 (`FTS5.api`) and builds the tokenizer's tables, which showed in a text search's profile
/// when every search made its own.
///
/// A tokenizer keeps buffers between calls, so it serves one thread at a time: the one that
/// holds its connection, within that access.
final class ConnectionTokenizers: Sendable {
    static let shared = ConnectionTokenizers()

    private struct Entry {
        /// Weak, so that a connection closed and another opened at its address is told apart.
        weak var connection: Database?
        let tokenizer: any FTS5Tokenizer
    }

    private let entries = Locked<[ObjectIdentifier: Entry]>([:])

    /// The tokenizer of `fact_fts` for `db`'s connection.
    func tokenizer(of db: Database) throws -> any FTS5Tokenizer {
        let key = ObjectIdentifier(db)
        if let entry = entries.withLock({ $0[key] }), entry.connection === db { return entry.tokenizer }
        let tokenizer = try db.makeTokenizer(SnippetMaker.tokenizer)
        entries.withLock { entries in
            entries = entries.filter { $0.value.connection != nil } // the closed connections'
            entries[key] = Entry(connection: db, tokenizer: tokenizer)
        }
        return tokenizer
    }
}
