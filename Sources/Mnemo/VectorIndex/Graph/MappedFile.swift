import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A file mapped read-only into memory, for as long as the value lives: what a reopened
/// ``NeighborGraph`` reads its columns from until it changes.
///
/// Mapping, not copying, is what makes reopening fast: copying a million-fact graph's file into
/// fresh memory spent most of its time in the kernel clearing the fresh pages, where the file's
/// pages, in the page cache since it was written or read, are mapped as they are. The mapping
/// starts on a 2 MiB boundary, so a kernel that keeps the file in 2 MiB pages (Linux's large
/// folios) maps them whole, and a walk's scattered reads miss the TLB no more than in the graph's
/// own memory (see ApproximateSearch.md, "Saved beside the database").
///
/// The mapping is private: nothing written to the file afterwards is seen, except by a process
/// that rewrites it in place, which Mnemo never does (a save renames a new file over it).
final class MappedFile: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer

    /// Maps the file at `url` whole.
    /// - Throws: the file system's error when it cannot be opened, read or mapped.
    init(_ url: URL) throws {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { throw Self.error(url) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Self.error(url) }
        let length = Int(status.st_size)
        guard length > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let start = Self.map(descriptor, length: length) else { throw Self.error(url) }
        bytes = UnsafeRawBufferPointer(start: start, count: length)
    }

    deinit {
        if let start = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: start), bytes.count) }
    }

    /// The alignment of the mapping: a huge page on x86-64 and ARM64 Linux.
    private static let alignment = 2 << 20

    /// Maps `length` bytes of the file at an address aligned to ``alignment``: address space
    /// for `length` plus the alignment is reserved, the file is mapped over its aligned part,
    /// and the rest of the reservation is given back.
    private static func map(_ descriptor: Int32, length: Int) -> UnsafeRawPointer? {
        let failed = UnsafeMutableRawPointer(bitPattern: -1)
        let reservedLength = length + alignment
        guard let reserved = mmap(nil, reservedLength, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            reserved != failed
        else { return nil }
        let start = reserved.alignedUp(toMultipleOf: alignment)
        guard let mapped = mmap(start, length, PROT_READ, MAP_PRIVATE | MAP_FIXED, descriptor, 0), mapped != failed
        else {
            munmap(reserved, reservedLength)
            return nil
        }
        let head = reserved.distance(to: start)
        if head > 0 { munmap(reserved, head) }
        let end = (start + length).alignedUp(toMultipleOf: Int(getpagesize()))
        let tail = end.distance(to: reserved + reservedLength)
        if tail > 0 { munmap(end, tail) }
        return UnsafeRawPointer(mapped)
    }

    private static func error(_ url: URL) -> CocoaError {
        CocoaError(
            .fileReadUnknown,
            userInfo: [NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: POSIXError(.init(rawValue: errno) ?? .EIO)])
    }
}
