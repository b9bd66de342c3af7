import Foundation

/// An input read as `mnemo ingest` reads it, with nothing stored: every record read and checked
/// against the mapping rules. The fuzz targets (`Scripts/fuzz`) drive the readers through it.
package enum IngestDryRead {
    /// Reads the records of `bytes` in `format` with ingest's default options, at most `limit` of
    /// them; how many items (records and rejections) the reader yielded. A reader that yields
    /// `limit` items from a small input does not end.
    package static func itemCount(of bytes: Data, format: IngestFormat, limit: Int) -> Int {
        let options = IngestOptions()
        guard
            var reader = try? recordReader(
                format, of: ByteChunks(data: bytes), maximumLineLength: options.maximumLineLength)
        else { return 0 }
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
