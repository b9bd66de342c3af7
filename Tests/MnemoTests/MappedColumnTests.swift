import Foundation
import MnemoEvaluation
import Testing

@testable import Mnemo

@Suite("Mapped columns")
struct MappedColumnTests {
    /// Files from the first byte, in a directory of the test's own.
    private static func files(_ directory: URL) -> ColumnFiles {
        ColumnFiles(directory: directory, minimumBytes: 1)
    }

    private static func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-columns-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func aColumnPastItsThresholdIsAFileNoOneElseSees() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var column = MappedColumn<Float>(files: ColumnFiles(directory: directory, minimumBytes: 4_096))
        column.append(contentsOf: [Float](repeating: 1, count: 100))
        #expect(!column.isMapped)
        #expect(column.heapBytes >= 400)
        // Growing past 4 KiB moves the column into a file, keeping what it held.
        column.append(contentsOf: (0..<10_000).map(Float.init))
        #expect(column.isMapped)
        #expect(column.heapBytes == 0)
        #expect(column.mappedBytes >= 40_400)
        #expect(column[0..<100] == [Float](repeating: 1, count: 100))
        #expect(column[100..<10_100] == (0..<10_000).map(Float.init))
        // Unlinked at once: nothing is left in the directory for another process, or after this one.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    /// A database on a read-only volume: its directory cannot hold the file, the temporary
    /// directory does.
    @Test func aDirectoryThatCannotHoldTheFileFallsBackToTheTemporaryOne() {
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID())/columns")
        var column = MappedColumn<Float>(files: ColumnFiles(directory: missing, minimumBytes: 1))
        column.append(contentsOf: (0..<2_000).map(Float.init))
        #expect(column.isMapped)
        #expect(column[1_990..<2_000] == (1_990..<2_000).map(Float.init))
    }

    @Test func aCopyKeepsItsElementsWhenTheOriginalChanges() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var column = MappedColumn<Int8>(files: Self.files(directory))
        column.append(contentsOf: [Int8](repeating: 7, count: 64))
        #expect(column.isMapped)
        let before = column
        column.replace(from: 8, with: [Int8](repeating: -3, count: 8))
        column.copy(from: 8, to: 32, length: 8)
        column.removeLast(16)
        column.append(contentsOf: [Int8](repeating: 5, count: 5_000))
        #expect(before.count == 64)
        #expect(before[0..<64] == [Int8](repeating: 7, count: 64))
        #expect(column.count == 5_048)
        #expect(column[0..<8] == [Int8](repeating: 7, count: 8))
        #expect(column[8..<16] == [Int8](repeating: -3, count: 8))
        #expect(column[32..<40] == [Int8](repeating: -3, count: 8))
        #expect(column[48..<5_048] == [Int8](repeating: 5, count: 5_000))
    }

    /// The writer's column grows past the snapshots that searches hold without copying them:
    /// they never read past their own ends. A copy that does not end where the storage's
    /// writing ends copies before it appends.
    @Test func appendingBesideCopiesThatEndWhereItEndsWritesInPlace() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var column = MappedColumn<Int8>(files: Self.files(directory))
        column.append(contentsOf: [Int8](repeating: 1, count: 100))
        let held = column
        column.append(contentsOf: [Int8](repeating: 2, count: 20))
        #expect(Self.address(of: column) == Self.address(of: held))
        #expect(held.count == 100)
        #expect(held[0..<100] == [Int8](repeating: 1, count: 100))
        var stale = held
        stale.append(contentsOf: [Int8](repeating: 3, count: 5))
        #expect(Self.address(of: stale) != Self.address(of: held))
        #expect(column[100..<120] == [Int8](repeating: 2, count: 20))
        #expect(stale[100..<105] == [Int8](repeating: 3, count: 5))
    }

    @Test func anUpdateOfAttributesLeavesTheVectorsShared() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var store = VectorSnapshot(dimension: 4, files: Self.files(directory))
        let attributes = VectorSnapshot.Attributes(
            namespace: "default", topicID: 1, type: .fact, importance: .medium, isActive: true)
        store.upsert(id: 1, vector: [1, 0, 0, 0], attributes: attributes)
        let held = store
        var changed = attributes
        changed.isActive = false
        store.upsert(id: 1, vector: [1, 0, 0, 0], attributes: changed)
        #expect(Self.address(of: store.vectors) == Self.address(of: held.vectors))
        store.upsert(id: 1, vector: [0, 1, 0, 0], attributes: changed)
        #expect(Self.address(of: store.vectors) != Self.address(of: held.vectors))
        #expect(held.vector(of: 1) == [1, 0, 0, 0])
        #expect(store.vector(of: 1) == [0, 1, 0, 0])
    }

    private static func address<Element>(of column: MappedColumn<Element>) -> UnsafeRawPointer? {
        column.withStorageBytes { $0.baseAddress }
    }

    /// An erased fact's vector must not stay in the file: the vector index removes a row by
    /// moving the last row into its place and dropping the last, whose bytes are zeroed.
    @Test func aRemovedRowLeavesNoByteInTheFile() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var store = VectorSnapshot(dimension: 8, files: Self.files(directory))
        let marker: [Float] = [0.125, 0.25, 0.375, 0.5, 0.5, 0.375, 0.25, 0.125]
        for id in 1...40 {
            let vector = id == 40 || id == 7 ? marker : (0..<8).map { Float(($0 + id) % 5) }
            store.upsert(
                id: Int64(id), vector: vector,
                attributes: .init(namespace: "default", topicID: 1, type: .fact, importance: .medium, isActive: true))
        }
        #expect(store.vectors.isMapped)
        store.remove(id: 40)
        store.remove(id: 7)
        let pattern = marker.withUnsafeBytes { Array($0) }
        store.vectors.withStorageBytes { bytes in
            let contents = Array(bytes)
            let found = (0...(contents.count - pattern.count)).contains { offset in
                contents[offset..<offset + pattern.count].elementsEqual(pattern)
            }
            #expect(!found, "a removed row's vector is still in the column's file")
        }
    }

    /// The same rows give the same answers whether their vectors and codes are in files or in
    /// memory, exact or quantized, and after updates and removals.
    @Test func aSnapshotInFilesSearchesLikeOneInMemory() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let corpus = SyntheticCorpus(.init(facts: 3_000, queries: 10, dimension: 32, seed: 5))
        var inMemory = VectorSnapshot(dimension: 32, files: nil)
        var inFiles = VectorSnapshot(dimension: 32, files: Self.files(directory))
        for (index, fact) in corpus.facts.enumerated() {
            let attributes = VectorSnapshot.Attributes(
                namespace: index % 3 == 0 ? "other" : "default", topicID: 1, type: fact.type,
                importance: fact.importance, isActive: fact.isActive)
            let vector = Array(corpus.vector(ofFact: index))
            inMemory.upsert(id: Int64(index + 1), vector: vector, attributes: attributes)
            inFiles.upsert(id: Int64(index + 1), vector: vector, attributes: attributes)
        }
        for id in stride(from: 1, through: 3_000, by: 7) {
            inMemory.remove(id: Int64(id))
            inFiles.remove(id: Int64(id))
        }
        for id in stride(from: 2, through: 3_000, by: 11) {
            let vector = Array(corpus.vector(ofFact: (id * 13) % 3_000))
            let attributes = VectorSnapshot.Attributes(
                namespace: "default", topicID: 1, type: .fact, importance: .high, isActive: true)
            inMemory.upsert(id: Int64(id), vector: vector, attributes: attributes)
            inFiles.upsert(id: Int64(id), vector: vector, attributes: attributes)
        }
        #expect(inFiles.vectors.isMapped && inFiles.codes.isMapped)
        #expect(!inMemory.vectors.isMapped)
        let filter = VectorFilter(FactFilter(), namespaceCode: inFiles.namespaceCode("default")!, topicIDs: nil)
        for query in corpus.queries {
            for precision in [VectorSnapshot.Precision.exact, .quantized(rescoreFactor: 4)] {
                #expect(
                    inFiles.nearest(to: query.vector, k: 10, filter: filter, precision: precision)
                        == inMemory.nearest(to: query.vector, k: 10, filter: filter, precision: precision))
            }
        }
        #expect(inFiles.vector(of: 2) == inMemory.vector(of: 2))
    }
}
