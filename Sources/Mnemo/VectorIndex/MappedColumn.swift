import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A growable column of plain values, copied on write like an array, that keeps its elements in
/// a file the process maps once it passes ``ColumnFiles/minimumBytes``: the pages belong to the
/// file, so the system reads them from disk when a search touches them and may drop them under
/// memory pressure, where an array's pages would stay the process's own.
///
/// The vector index keeps its `Float` vectors and int8 codes in such columns: at a million facts
/// they are 1.9 GB, which a namespace with a graph reads only to rescore a search's few best
/// candidates (see ApproximateSearch.md). The file is unlinked as soon as it is created, so no
/// other process sees it and nothing of it remains after the process; elements that a removal
/// frees are zeroed, so an erased fact's vector does not linger in it.
///
/// Like `Array`, a copy shares the storage until one of the two changes it: the change then
/// copies the elements into new storage, so a search reading one copy never sees another's
/// writes. Appending is the exception that keeps a writer from copying the snapshots searches
/// hold: past their ends, which they never read (``append(contentsOf:)``).
struct MappedColumn<Element: BitwiseCopyable>: Sendable {
    private var storage: ColumnStorage
    private(set) var count = 0

    init(files: ColumnFiles?) {
        storage = ColumnStorage(files: files, bytes: 0, copying: nil)
    }

    /// The bytes held in the process's memory.
    var heapBytes: Int { storage.isMapped ? 0 : storage.capacity }

    /// The bytes held in the mapped file.
    var mappedBytes: Int { storage.isMapped ? storage.capacity : 0 }

    /// Whether the elements are in a mapped file.
    var isMapped: Bool { storage.isMapped }

    func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<Element>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: storage.base.assumingMemoryBound(to: Element.self), count: count))
    }

    /// Every byte of the storage, in use or not: for tests that look for what a removal left.
    func withStorageBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: storage.base, count: storage.capacity))
    }

    subscript(range: Range<Int>) -> [Element] {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range \(range) outside 0..<\(count)")
        return withUnsafeBufferPointer { Array($0[range]) }
    }

    /// Appends `elements`. A column that shares its storage with copies that end where it ends
    /// (the snapshots that searches hold, of the column a writer is growing) appends in place
    /// rather than copying: the copies never read past their own ends.
    mutating func append(contentsOf elements: [Element]) {
        let stride = MemoryLayout<Element>.stride
        let start = count
        let end = count + elements.count
        if isKnownUniquelyReferenced(&storage) || !storage.claim(from: start * stride, to: end * stride) {
            makeUniqueRoom(for: end)
        }
        count = end
        write(elements, at: start)
    }

    /// Writes `elements` over the elements from `start` on.
    mutating func replace(from start: Int, with elements: [Element]) {
        precondition(start >= 0 && start + elements.count <= count, "replacement outside the column")
        makeUniqueRoom(for: count)
        write(elements, at: start)
    }

    private func write(_ elements: [Element], at start: Int) {
        elements.withUnsafeBufferPointer { elementPointer(start).update(from: $0.baseAddress!, count: $0.count) }
    }

    /// Copies `length` elements from `source` to `target` (ranges that do not overlap).
    mutating func copy(from source: Int, to target: Int, length: Int) {
        precondition(max(source, target) + length <= count, "copy outside the column")
        makeUniqueRoom(for: count)
        elementPointer(target).update(from: elementPointer(source), count: length)
    }

    /// Removes the last `length` elements and zeroes their bytes.
    mutating func removeLast(_ length: Int) {
        precondition(length <= count, "cannot remove \(length) of \(count) elements")
        makeUniqueRoom(for: count)
        count -= length
        storage.written = count * MemoryLayout<Element>.stride
        UnsafeMutableRawPointer(elementPointer(count)).initializeMemory(
            as: UInt8.self, repeating: 0, count: length * MemoryLayout<Element>.stride)
    }

    private func elementPointer(_ index: Int) -> UnsafeMutablePointer<Element> {
        storage.base.assumingMemoryBound(to: Element.self) + index
    }

    /// Makes the storage this column's alone and large enough for `needed` elements, and notes
    /// that it is written up to there (see ``append(contentsOf:)``).
    private mutating func makeUniqueRoom(for needed: Int) {
        let stride = MemoryLayout<Element>.stride
        let neededBytes = needed * stride
        defer { storage.written = max(needed, count) * stride }
        if isKnownUniquelyReferenced(&storage) {
            guard neededBytes > storage.capacity else { return }
            if storage.grow(to: max(neededBytes, storage.capacity * 2)) { return }
        }
        let bytes = neededBytes > storage.capacity ? max(neededBytes, storage.capacity * 2) : storage.capacity
        storage = ColumnStorage(
            files: storage.files, bytes: bytes,
            copying: UnsafeRawBufferPointer(start: storage.base, count: count * stride))
    }
}

/// Where the vector index's large columns are kept (``MappedColumn``).
struct ColumnFiles: Sendable, Equatable {
    /// The directory of the column files: the database's, whose disk holds the data anyway
    /// (a system's temporary directory may be memory, as `tmpfs` is on many Linux systems).
    var directory: URL
    /// Columns smaller than this stay in the process's memory: a file would cost more than it
    /// saves. 4 MiB is about 2,700 facts' `Float` vectors at 384 dimensions.
    var minimumBytes = 4 << 20

    /// The system's temporary directory, for an index with no database file (in memory).
    static let temporary = ColumnFiles(directory: FileManager.default.temporaryDirectory)
}

/// The memory of a ``MappedColumn``: the process's own below ``ColumnFiles/minimumBytes``, a
/// map of an unlinked file from there on.
final class ColumnStorage: @unchecked Sendable {
    let files: ColumnFiles?
    private(set) var base: UnsafeMutableRawPointer
    private(set) var capacity: Int
    /// The open file of a mapped storage; -1 for memory.
    private var descriptor: Int32 = -1
    /// The end of what the columns sharing this storage have written, in bytes: a column that
    /// ends there may append in place (``claim(from:to:)``).
    var written = 0
    private let writtenLock = NSLock()

    var isMapped: Bool { descriptor >= 0 }

    /// Storage of at least `bytes` (64 at least, so that even an empty column has an address),
    /// holding a copy of `source`.
    init(files: ColumnFiles?, bytes: Int, copying source: UnsafeRawBufferPointer?) {
        self.files = files
        let bytes = max(64, bytes, source?.count ?? 0)
        if let files, bytes >= files.minimumBytes, case (let file, let mapped)? = Self.mapFile(in: files, bytes: bytes)
        {
            descriptor = file
            base = mapped
        } else {
            base = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        }
        capacity = bytes
        if let source, source.count > 0 { base.copyMemory(from: source.baseAddress!, byteCount: source.count) }
    }

    /// Claims the bytes `start..<end` for a column that ends at `start` and shares this storage:
    /// true when no column sharing it has written past `start` and they fit, so that the column
    /// may write them while the others read what comes before.
    func claim(from start: Int, to end: Int) -> Bool {
        writtenLock.withLock {
            guard written == start, end <= capacity else { return false }
            written = end
            return true
        }
    }

    deinit {
        if isMapped {
            munmap(base, capacity)
            // Dropping the file's length discards the pages not yet written instead of writing them.
            _ = ftruncate(descriptor, 0)
            close(descriptor)
        } else {
            base.deallocate()
        }
    }

    /// Enlarges the storage in place when it is a file (no copy: the file grows and is mapped
    /// again), or moves it into a file once it passes the threshold; false when it must be
    /// copied into new storage instead.
    func grow(to bytes: Int) -> Bool {
        guard isMapped else {
            guard let files, bytes >= files.minimumBytes,
                case (let file, let mapped)? = Self.mapFile(in: files, bytes: bytes)
            else { return false }
            mapped.copyMemory(from: base, byteCount: capacity)
            base.deallocate()
            (descriptor, base, capacity) = (file, mapped, bytes)
            return true
        }
        guard Self.reserve(descriptor, from: capacity, to: bytes), let mapped = Self.map(descriptor, bytes: bytes)
        else { return false }
        munmap(base, capacity)
        (base, capacity) = (mapped, bytes)
        return true
    }

    /// A mapped file of `bytes` in the files' directory or, when that fails (a database on a
    /// read-only volume), in the temporary directory; `nil` when neither can hold it, and the
    /// column stays in memory.
    private static func mapFile(in files: ColumnFiles, bytes: Int) -> (Int32, UnsafeMutableRawPointer)? {
        mapFile(inDirectory: files.directory, bytes: bytes)
            ?? mapFile(inDirectory: FileManager.default.temporaryDirectory, bytes: bytes)
    }

    /// Creates, unlinks, sizes and maps a file of `bytes` in `directory`: its descriptor and
    /// address, or `nil` (nothing held) when any step fails.
    private static func mapFile(inDirectory directory: URL, bytes: Int) -> (Int32, UnsafeMutableRawPointer)? {
        var template = Array(directory.appendingPathComponent(".mnemo-vectors-XXXXXX").path.utf8CString)
        let file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard file >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        guard reserve(file, from: 0, to: bytes), let mapped = map(file, bytes: bytes) else {
            close(file)
            return nil
        }
        return (file, mapped)
    }

    /// Sizes the file to `bytes` with its blocks allocated: a write to a mapped page the disk
    /// has no room for would stop the process, where a failed allocation is an answer.
    private static func reserve(_ file: Int32, from current: Int, to bytes: Int) -> Bool {
        #if canImport(Darwin)
            var store = fstore_t(
                fst_flags: UInt32(F_ALLOCATEALL), fst_posmode: F_PEOFPOSMODE, fst_offset: 0,
                fst_length: off_t(bytes - current), fst_bytesalloc: 0)
            guard fcntl(file, F_PREALLOCATE, &store) != -1 else { return false }
            return ftruncate(file, off_t(bytes)) == 0
        #else
            return posix_fallocate(file, off_t(current), off_t(bytes - current)) == 0
        #endif
    }

    private static func map(_ file: Int32, bytes: Int) -> UnsafeMutableRawPointer? {
        let mapped = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, file, 0)
        return mapped == UnsafeMutableRawPointer(bitPattern: -1) ? nil : mapped
    }
}
