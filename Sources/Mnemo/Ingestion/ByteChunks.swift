import Foundation

/// An input's bytes in pieces: a file or pipe read a chunk at a time, or data already in memory.
///
/// Reading in chunks is what keeps a JSONL ingest's memory flat: at most one chunk and one
/// line are held, whatever the size of the file.
struct ByteChunks {
    private enum Source {
        case handle(FileHandle)
        case data(Data?)
    }

    /// The size of each read from a file: large enough that system calls cost nothing, small
    /// enough to be irrelevant next to the database's page cache.
    static let chunkSize = 1 << 20

    private var source: Source
    private var peeked: Data?

    init(handle: FileHandle) {
        source = .handle(handle)
    }

    init(data: Data) {
        source = .data(data)
    }

    /// The next chunk, or `nil` at the end of the input (and on every call after it).
    mutating func next() throws -> Data? {
        if let peeked {
            self.peeked = nil
            return peeked
        }
        switch source {
        case .handle(let handle):
            do {
                guard let chunk = try handle.read(upToCount: Self.chunkSize), !chunk.isEmpty else { return nil }
                return chunk
            } catch {
                throw MnemoError.unreadableInput("reading failed: \(error.localizedDescription)")
            }
        case .data(let data):
            source = .data(nil)
            return data.flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    /// The first chunk, which ``next()`` returns again: enough to detect the format.
    mutating func peek() throws -> Data {
        if peeked == nil { peeked = try next() ?? Data() }
        return peeked!
    }

    /// Everything left, in one piece, for the formats that are one JSON document.
    mutating func readAll() throws -> Data {
        var all = Data()
        while let chunk = try next() {
            if all.isEmpty { all = chunk } else { all.append(chunk) }
        }
        return all
    }
}
