import Foundation

/// The file formats that ``KnowledgeBase/ingest(data:options:)`` reads.
///
/// Every format carries the same record fields (see ``IngestRecord``); they differ in how the
/// records are laid out and where a record's topic comes from.
public enum IngestFormat: String, CaseIterable, Hashable, Sendable, Codable {
    /// The output of an LLM fact extractor, as in the Lucid API: `{"extracted": [record, …]}` or a
    /// bare array of records. A record's `category` becomes its top-level topic.
    case extracted
    /// A knowledge tree, as in the MindChat app: `{"topics": [node, …]}` where a node has a `path`
    /// (or, below the top level, a `name`), `facts` and `children`. A fact's topic is its node.
    case topics
    /// One record per line, streamed: files of any size are read in bounded memory. Blank lines
    /// are skipped. A record's topic is its `topic` field.
    case jsonl

    /// Guesses the format from the first bytes of a file.
    ///
    /// The first byte other than whitespace (after an optional UTF-8 byte-order mark) decides: `[`
    /// is ``extracted``; `{` whose first key is `"extracted"` or `"topics"` is that format;
    /// anything else, including an empty file, is ``jsonl``. A whole-document file whose first key
    /// is something else reads as JSONL and fails line by line: force its format instead.
    /// - Parameter prefix: the start of the file; the first few kilobytes are plenty.
    package static func detect(_ prefix: some Collection<UInt8>) -> IngestFormat {
        var bytes = prefix.drop(while: isSpaceOrBOM)
        guard let first = bytes.first else { return .jsonl }
        if first == UInt8(ascii: "[") { return .extracted }
        guard first == UInt8(ascii: "{") else { return .jsonl }
        bytes = bytes.dropFirst().drop(while: isSpaceOrBOM)
        if bytes.starts(with: Array(#""extracted""#.utf8)) { return .extracted }
        if bytes.starts(with: Array(#""topics""#.utf8)) { return .topics }
        return .jsonl
    }

    /// Whether a whole file must be read before its first record (``extracted``, ``topics``).
    var isWholeDocument: Bool { self != .jsonl }

    private static func isSpaceOrBOM(_ byte: UInt8) -> Bool {
        // 0xEF 0xBB 0xBF is the UTF-8 byte-order mark some editors write at the start of a file.
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0xEF || byte == 0xBB || byte == 0xBF
    }
}
