import Foundation

/// An input read as `mnemo ingest` reads it, with nothing stored: every record read and checked
/// against the mapping rules. The fuzz targets (`Scripts/fuzz`) drive the readers through it.
package enum IngestDryRead {
    /// Reads the records of `bytes` in `format`, at most `limit` of them; how many items (records
    /// and rejections) the reader yielded. A reader that yields `limit` items from a small input
    /// does not end.
    package static func itemCount(of bytes: Data, format: IngestFormat, limit: Int) -> Int {
        switch format {
        case .jsonl:
            var reader = JSONLReader(chunks: ByteChunks(data: bytes), maximumLineLength: 1 << 16)
            return readAll(&reader, limit: limit)
        case .extracted, .topics:
            guard var reader = try? DocumentReader(data: bytes, format: format) else { return 0 }
            return readAll(&reader, limit: limit)
        }
    }

    private static func readAll(_ reader: inout some RecordReader, limit: Int) -> Int {
        var topics = TopicPathCache()
        var count = 0
        while count < limit, let item = try? reader.next() {
            count += 1
            if case .record(let record, _, let nodeTopic) = item {
                _ = try? record.pending(defaultNamespace: "fuzz", pinned: "fuzz", nodeTopic: nodeTopic, topics: &topics)
            }
        }
        return count
    }
}
