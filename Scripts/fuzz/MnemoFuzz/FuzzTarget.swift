import Foundation
import Mnemo
import MnemoEncoder

/// A parser of untrusted bytes and what must hold for any input it is given.
///
/// An input passes when it does not crash, hang or trip AddressSanitizer and the target's
/// invariant holds, so that a silent wrong answer counts as a crash too.
enum FuzzTarget: String, CaseIterable {
    /// The JSONL reader with the record mapping.
    case jsonl
    /// The `{"extracted": [...]}` reader with the record mapping.
    case extracted
    /// The `{"topics": [...]}` reader with the record mapping.
    case topics
    /// User text to an FTS5 query.
    case textquery
    /// The WordPiece tokenizer, with the model's vocabulary when it is installed.
    case wordpiece
    /// The safetensors header reader and the tensors it accepts.
    case safetensors

    /// Runs one input through the target; stops the process when the invariant does not hold.
    func run(_ bytes: Data) {
        switch self {
        case .jsonl, .extracted, .topics:
            _ = IngestFormat.detect(bytes.prefix(4_096))
            // The three reader targets are named after their formats.
            let format = IngestFormat(rawValue: rawValue)!
            let limit = 1 << 20
            let items = IngestDryRead.itemCount(of: bytes, format: format, limit: limit)
            check(items < limit, "the \(format) reader does not end: \(items) items from \(bytes.count) bytes")
        case .textquery:
            let text = String(decoding: bytes, as: UTF8.self)
            for matching in TextQuery.Matching.allCases {
                guard let query = TextQuery(text, matching: matching) else { continue }
                // Every term is a non-empty quoted string without a quote inside: valid FTS5 syntax.
                let safe =
                    !query.pattern.isEmpty
                    && query.phrases.allSatisfy { !$0.isEmpty && $0.allSatisfy { !$0.isEmpty && !$0.contains("\"") } }
                check(safe, "unsafe FTS5 pattern \(query.pattern.debugDescription) for \(text.debugDescription)")
            }
        case .wordpiece:
            let text = String(decoding: bytes, as: UTF8.self)
            let ids = Self.tokenizer.encode(text, maxLength: 64)
            check((2...64).contains(ids.count), "\(ids.count) ids for at most 64 with [CLS] and [SEP]")
            _ = Self.tokenizer.tokenize(text)
        case .safetensors:
            let url = URL(fileURLWithPath: "/fuzz.safetensors")
            guard let file = try? SafetensorsFile(url: url, bytes: bytes) else { return }
            for name in file.tensors.keys { _ = try? file.floats(name) }
        }
    }

    /// The model's vocabulary when `MNEMO_MODEL` or the default cache folder holds it, else a small one.
    private static let tokenizer: WordPieceTokenizer = {
        if let loaded = try? WordPieceTokenizer(modelDirectory: ModelFolder.modelDirectory) { return loaded }
        FileHandle.standardError.write(Data("wordpiece: no model installed, a 15-word vocabulary\n".utf8))
        let words = [
            "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "a", "##s", "##ing", "run", "é", "##é", "中", "!",
            "##!",
        ]
        return try! WordPieceTokenizer(vocabulary: words)
    }()

    /// Stops the process with `message` (also in release builds, unlike `precondition`'s message).
    private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("\(rawValue): \(message())") }
    }
}
