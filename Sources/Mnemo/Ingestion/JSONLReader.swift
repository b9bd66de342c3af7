import Foundation

/// Reads JSONL: one record per line, streamed chunk by chunk.
///
/// Lines end with `\n` (a `\r` before it is dropped); blank lines are skipped and are not
/// records; the last line needs no newline. Each line is checked for UTF-8 and parsed on its
/// own, so one bad line is one rejection and the next line reads normally. A line longer than
/// the limit is skipped without being held in memory.
struct JSONLReader: RecordReader {
    private var chunks: ByteChunks
    private let maximumLineLength: Int
    /// The chunk being split and the offset of its first unread byte.
    private var chunk = Data()
    private var offset = 0
    /// The start of a line that continues in the next chunk.
    private var carry = Data()
    /// The length so far of an over-long line being skipped, or `nil` when not skipping.
    private var skippedLength: Int?
    private var line = 0
    private var record = 0
    private(set) var bytesRead = 0

    init(chunks: ByteChunks, maximumLineLength: Int) {
        self.chunks = chunks
        self.maximumLineLength = maximumLineLength
    }

    mutating func next() throws -> ReadItem? {
        while let text = try nextLine() {
            line += 1
            switch text {
            case .tooLong(let length):
                record += 1
                return .rejected(
                    IngestRejection(
                        record: record, line: line, code: .recordTooLong,
                        reason: "the line has \(length) bytes; the maximum is \(maximumLineLength)"))
            case .bytes(let bytes):
                let trimmed = Self.trimmed(bytes, isFirstLine: line == 1)
                if trimmed.allSatisfy(Self.isBlank) { continue }
                record += 1
                return Self.item(trimmed, at: RecordPosition(record: record, line: line))
            }
        }
        return nil
    }

    /// Reads one line's record, or why it cannot be read.
    static func item(_ bytes: Data, at position: RecordPosition) -> ReadItem {
        guard UTF8Validation.isValid(bytes) else {
            return .rejected(position.rejection(RecordProblem(.invalidUTF8, "the line is not valid UTF-8")))
        }
        let record = JSONValue.parse(bytes).flatMap(JSONValue.object).flatMap { object in
            Result { () throws(RecordProblem) in try IngestRecord(json: object) }
        }
        switch record {
        case .success(let record): return .record(record, position)
        case .failure(let problem): return .rejected(position.rejection(problem))
        }
    }

    private enum Line {
        case bytes(Data)
        case tooLong(Int)
    }

    /// The next line without its `\n`, reading chunks as needed; `nil` at the end of the input.
    private mutating func nextLine() throws -> Line? {
        while true {
            if offset < chunk.endIndex {
                let end = Self.firstNewline(in: chunk, from: offset)
                let piece = chunk[offset..<(end ?? chunk.endIndex)]
                offset = end.map { $0 + 1 } ?? chunk.endIndex
                if let skipped = skippedLength {
                    skippedLength = skipped + piece.count
                } else if carry.count + piece.count > maximumLineLength {
                    skippedLength = carry.count + piece.count
                    carry = Data()
                } else if end == nil {
                    carry.append(piece)
                } else if carry.isEmpty {
                    return .bytes(piece)
                } else {
                    carry.append(piece)
                    defer { carry = Data() }
                    return .bytes(carry)
                }
                if end != nil, let skipped = skippedLength {
                    skippedLength = nil
                    return .tooLong(skipped)
                }
                continue
            }
            guard let next = try chunks.next() else { return finalLine() }
            chunk = next
            offset = next.startIndex
            bytesRead += next.count
        }
    }

    /// What is left when the input ends without a newline.
    private mutating func finalLine() -> Line? {
        if let skipped = skippedLength {
            skippedLength = nil
            return .tooLong(skipped)
        }
        guard !carry.isEmpty else { return nil }
        defer { carry = Data() }
        return .bytes(carry)
    }

    private static func firstNewline(in data: Data, from start: Int) -> Int? {
        data.withUnsafeBytes { buffer -> Int? in
            let base = start - data.startIndex
            guard let found = memchr(buffer.baseAddress! + base, 0x0A, buffer.count - base) else { return nil }
            return data.startIndex + (UnsafeRawPointer(found) - buffer.baseAddress!)
        }
    }

    /// The line without a trailing `\r` and, on the first line, without a UTF-8 byte-order mark.
    private static func trimmed(_ bytes: Data, isFirstLine: Bool) -> Data {
        var bytes = bytes
        if bytes.last == 0x0D { bytes = bytes.dropLast() }
        if isFirstLine, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D
    }
}
