// libFuzzer entry point for Mnemo's parsers of untrusted bytes. Compiled by Scripts/fuzz/fuzz.sh
// together with the library sources each target needs, with one of FUZZ_JSONL,
// FUZZ_EXTRACTED, FUZZ_TOPICS, FUZZ_TEXTQUERY, FUZZ_WORDPIECE or FUZZ_SAFETENSORS defined.
// A target passes when no input crashes, hangs, leaks without bound or trips AddressSanitizer;
// each also checks an invariant, so that a silent wrong answer counts as a crash.
import Foundation

#if FUZZ_WORDPIECE
    /// The real vocabulary when MNEMO_MODEL (or the default cache) holds the model, else a small one.
    let tokenizer: WordPieceTokenizer = {
        let folder =
            ProcessInfo.processInfo.environment["MNEMO_MODEL"]
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(
                ".cache/mnemo/models/all-MiniLM-L6-v2"
            ).path
        if let loaded = try? WordPieceTokenizer(modelDirectory: URL(fileURLWithPath: folder)) { return loaded }
        let words = [
            "[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "a", "##s", "##ing", "run", "é", "##é", "中", "!",
            "##!",
        ]
        return try! WordPieceTokenizer(vocabulary: words)
    }()
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func mnemoFuzzOne(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Data(bytes: start, count: count)
    #if FUZZ_JSONL
        var reader = JSONLReader(chunks: ByteChunks(data: bytes), maximumLineLength: 1 << 16)
        readAll { try reader.next() }
    #elseif FUZZ_EXTRACTED || FUZZ_TOPICS
        #if FUZZ_EXTRACTED
            let format = IngestFormat.extracted
        #else
            let format = IngestFormat.topics
        #endif
        _ = IngestFormat.detect(bytes.prefix(4_096))
        if var reader = try? DocumentReader(data: bytes, format: format) {
            readAll { reader.next() }
        }
    #elseif FUZZ_TEXTQUERY
        let text = String(decoding: bytes, as: UTF8.self)
        for matching in TextQuery.Matching.allCases {
            if let query = TextQuery(text, matching: matching) {
                // Every term is a non-empty quoted string without a quote inside: valid FTS5 syntax.
                precondition(
                    !query.pattern.isEmpty
                        && query.phrases.allSatisfy {
                            !$0.isEmpty && $0.allSatisfy { !$0.isEmpty && !$0.contains("\"") }
                        },
                    "unsafe FTS5 pattern \(query.pattern.debugDescription) for \(text.debugDescription)")
            }
        }
    #elseif FUZZ_WORDPIECE
        let text = String(decoding: bytes, as: UTF8.self)
        let ids = tokenizer.encode(text, maxLength: 64)
        precondition(ids.count <= 64 && ids.count >= 2, "\(ids.count) ids")
        _ = tokenizer.tokenize(text)
    #elseif FUZZ_SAFETENSORS
        if let file = try? SafetensorsFile(url: URL(fileURLWithPath: "/fuzz.safetensors"), bytes: bytes) {
            for name in file.tensors.keys { _ = try? file.floats(name) }
        }
    #endif
    return 0
}

#if FUZZ_JSONL || FUZZ_EXTRACTED || FUZZ_TOPICS
    /// Reads every item and applies the mapping rules to each record, as ingest does.
    func readAll(_ next: () throws -> ReadItem?) {
        var topics = TopicPathCache()
        var records = 0
        while let item = try? next() {
            records += 1
            precondition(records < 1 << 20, "reader does not end")
            if case .record(let record, _, let nodeTopic) = item {
                _ = try? record.pending(defaultNamespace: "fuzz", pinned: "fuzz", nodeTopic: nodeTopic, topics: &topics)
            }
        }
    }
#endif
