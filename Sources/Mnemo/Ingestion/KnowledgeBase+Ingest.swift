import Foundation
import GRDB

extension KnowledgeBase {
    /// Ingests a file's worth of records held in memory.
    ///
    /// Good records are stored, exact duplicates of stored facts only raise their mention count,
    /// and bad records are rejected one by one with their position and reason (see
    /// ``IngestRejection``); with ``IngestOptions/strict``, any rejection means nothing is stored.
    /// See ``IngestRecord`` for how fields map to facts.
    ///
    /// A cancelled task stops within one embedding pass of the batch in progress (with the
    /// sentence encoder, a forward pass of 32 texts by default), which is rolled back; the
    /// batches committed before stay.
    /// - Throws: ``MnemoError/unreadableInput(_:)`` when the input is not readable as its format
    ///   (nothing is stored), ``MnemoError/interrupted(stored:cause:)`` on a database failure or
    ///   a cancellation after batches were committed, `CancellationError` when the task was
    ///   cancelled before anything was stored.
    @discardableResult
    public func ingest(data: Data, options: IngestOptions = IngestOptions()) async throws -> IngestReport {
        try await ingest(ByteChunks(data: data), totalBytes: data.count, options: options)
    }

    /// Ingests a file, detecting its format unless ``IngestOptions/format`` is set.
    ///
    /// JSONL is streamed: memory stays flat whatever the file's size. The whole-document formats
    /// are parsed at once. See ``ingest(data:options:)``.
    @discardableResult
    public func ingest(contentsOf url: URL, options: IngestOptions = IngestOptions()) async throws -> IngestReport {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw MnemoError.unreadableInput("no such file: \(url.path)")
        }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw MnemoError.unreadableInput("cannot open \(url.path): \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue
        return try await ingest(ByteChunks(handle: handle), totalBytes: size, options: options)
    }

    /// Ingests what a file handle reads until its end, such as standard input.
    @discardableResult
    public func ingest(fileHandle: FileHandle, options: IngestOptions = IngestOptions()) async throws -> IngestReport {
        try await ingest(ByteChunks(handle: fileHandle), totalBytes: nil, options: options)
    }

    /// Ingests records an app produces, such as an extractor's output, in sequence order.
    ///
    /// Rejections give the record's position in the sequence, from 1, and no line.
    @discardableResult
    public func ingest<Records: AsyncSequence>(
        records: Records, options: IngestOptions = IngestOptions()
    ) async throws -> IngestReport where Records.Element == IngestRecord {
        var pipeline = try IngestPipeline(knowledgeBase: self, options: options, format: nil, totalBytes: nil)
        var index = 0
        do {
            for try await record in records {
                index += 1
                try await pipeline.accept(.record(record, RecordPosition(record: index, line: nil)), bytesRead: 0)
            }
            return try await pipeline.finish()
        } catch {
            try? await pipeline.settle()
            throw error
        }
    }

    private func ingest(_ chunks: ByteChunks, totalBytes: Int?, options: IngestOptions) async throws -> IngestReport {
        var chunks = chunks
        let format = try options.format ?? IngestFormat.detect(chunks.peek().prefix(4_096))
        var pipeline = try IngestPipeline(knowledgeBase: self, options: options, format: format, totalBytes: totalBytes)
        do {
            var reader = try recordReader(format, of: chunks, maximumLineLength: options.maximumLineLength)
            while let item = try reader.next() {
                try await pipeline.accept(item, bytesRead: reader.bytesRead)
            }
            return try await pipeline.finish()
        } catch {
            // Let a batch already being written land before reporting the failure.
            try? await pipeline.settle()
            throw error
        }
    }
}
