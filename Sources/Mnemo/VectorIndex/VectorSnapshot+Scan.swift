import Dispatch
import Foundation

extension VectorSnapshot {
    /// A scored row of a vector search.
    struct Match: Sendable, Equatable {
        var id: Int64
        var similarity: Float
    }

    /// How a scan scores rows.
    enum Precision: Sendable {
        /// Float dot products over every passing row.
        case exact
        /// Int8 dot products over every passing row (a quarter of the bytes; see
        /// ``QuantizedQuery``), then float re-scoring of the best `k × rescoreFactor` candidates.
        case quantized(rescoreFactor: Int)
    }

    /// The threads of a scan: every core the system lets the process use, so an 8-core Mac
    /// scans on 8 (it was fixed at 2, the development machine's count).
    static let defaultThreads = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// Rows below this count are scanned on one thread: splitting costs more than it saves.
    static let parallelThreshold = 8_192

    /// The smallest chunk of a parallel scan (about a tenth of a millisecond of work).
    static let minimumChunkRows = 2_048

    /// The `k` best rows passing `filter`, by cosine similarity to the unit vector `query`.
    ///
    /// `work`, when given, runs as the first task of the scan's threads: a hybrid search ranks
    /// its text matches there, so the two share the cores instead of three threads contending
    /// for two. `instructionSet` chooses the dot-product kernels (tests compare the paths).
    func nearest(
        to query: [Float], k: Int, filter: VectorFilter, minSimilarity: Float? = nil,
        precision: Precision = .exact, threads: Int = VectorSnapshot.defaultThreads,
        instructionSet: KernelInstructionSet = .preferred, alongside work: (@Sendable () -> Void)? = nil
    ) -> [Match] {
        precondition(query.count == dimension, "query has \(query.count) components, index has \(dimension)")
        guard k > 0, count > 0 else {
            work?()
            return []
        }
        switch precision {
        case .exact:
            return scanFloat(
                query, k: k, filter: filter, floor: minSimilarity ?? -.infinity, threads: threads,
                instructionSet: instructionSet, alongside: work
            )
            .map { Match(id: ids[$0.row], similarity: $0.score) }
        case .quantized(let factor):
            let candidates = scanInt8(
                query, k: max(k * factor, k + 32), filter: filter, threads: threads,
                instructionSet: instructionSet, alongside: work)
            return rescore(
                candidates, query: query, k: k, floor: minSimilarity ?? -.infinity, instructionSet: instructionSet)
        }
    }

    /// The row ranges the threads take in turn, largest first: each is a `2 × threads`-th of the
    /// rows left. Threads take a chunk as they finish the last, so the small chunks at the end
    /// even out the threads' finishing times when a core was busy with other work (another
    /// process, or a hybrid search's text ranking running beside the scan), while the few large
    /// chunks keep the hand-outs few. Equal chunks of a quarter of a thread's share left
    /// a hybrid search's text ranking adding most of its length to the scan's end.
    private func chunks(_ count: Int, threads: Int) -> [Range<Int>] {
        guard count >= Self.parallelThreshold, threads > 1 else { return [0..<count] }
        var ranges: [Range<Int>] = []
        var start = 0
        while start < count {
            let size = max(Self.minimumChunkRows, (count - start) / (2 * threads))
            ranges.append(start..<min(count, start + size))
            start += size
        }
        return ranges
    }

    /// Runs `work`, then `scan` over chunks of `count` positions, on all cores, and merges the
    /// threads' heaps.
    ///
    /// Each thread keeps one heap and takes the next chunk as it finishes the last: a heap per
    /// chunk started empty for every chunk, and filling the ~15 heaps of a 100k scan took a
    /// quarter of its time.
    func parallelTopK(
        k: Int, count: Int, threads: Int, alongside work: (@Sendable () -> Void)?,
        _ scan: (Range<Int>, inout TopK) -> Void
    ) -> [TopK.Entry] {
        let ranges = chunks(count, threads: threads)
        // A scan too small to share is not worth a second thread beside the work either: handing
        // the work over and waiting for it cost more than the scan of a few thousand rows.
        if ranges.count == 1 {
            work?()
            var heap = TopK(capacity: k)
            scan(ranges[0], &heap)
            return heap.sorted()
        }
        // With work alongside, its thread joins the scan when the work is done.
        let lanes = min(max(1, threads), ranges.count + (work == nil ? 0 : 1))
        var heaps = [TopK](repeating: TopK(capacity: k), count: lanes)
        let queue = ChunkQueue(count: ranges.count)
        heaps.withUnsafeMutableBufferPointer { heaps in
            let heaps = UnsafeSendable(heaps)
            withoutActuallyEscaping(scan) { scan in
                let scan = UnsafeSendable(scan)
                DispatchQueue.concurrentPerform(iterations: lanes) { lane in
                    if lane == 0 { work?() }
                    while let chunk = queue.next() { scan.value(ranges[chunk], &heaps.value[lane]) }
                }
            }
        }
        var merged = TopK(capacity: k)
        for heap in heaps { for entry in heap.entries { merged.insert(score: entry.score, row: entry.row) } }
        return merged.sorted()
    }

    private func scanFloat(
        _ query: [Float], k: Int, filter: VectorFilter, floor: Float, threads: Int,
        instructionSet: KernelInstructionSet, alongside work: (@Sendable () -> Void)?
    ) -> [TopK.Entry] {
        let dimension = dimension
        return withRows(of: filter) { members, count in
            vectors.withUnsafeBufferPointer { vectors in
                query.withUnsafeBufferPointer { query in
                    parallelTopK(k: k, count: count, threads: threads, alongside: work) { range, heap in
                        ScanBlock.forEach(in: range, of: members) { block, scores in
                            VectorMath.scores(
                                block, vectors: vectors.baseAddress!, dimension: dimension, query: query.baseAddress!,
                                into: scores, using: instructionSet)
                            select(block, scores, floor: floor, filter: filter, into: &heap)
                        }
                    }
                }
            }
        }
    }

    private func scanInt8(
        _ query: [Float], k: Int, filter: VectorFilter, threads: Int,
        instructionSet: KernelInstructionSet, alongside work: (@Sendable () -> Void)?
    ) -> [TopK.Entry] {
        withRows(of: filter) { members, count in
            QuantizedQuery(query).withKernel(using: instructionSet) { kernel in
                codes.withUnsafeBufferPointer { codes in
                    scales.withUnsafeBufferPointer { scales in
                        parallelTopK(k: k, count: count, threads: threads, alongside: work) { range, heap in
                            ScanBlock.forEach(in: range, of: members) { block, scores in
                                // The query's own scale is the same for every row, so it is left out of the ranking.
                                kernel.scores(
                                    block, codes: codes.baseAddress!, scales: scales.baseAddress!, into: scores)
                                select(block, scores, floor: -.infinity, filter: filter, into: &heap)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Offers a scored block's rows to `heap`. The filter is tested only for rows that would enter
    /// it: once the heap is full, that is a small share of the rows.
    @inline(__always)
    private func select(
        _ block: ScanBlock, _ scores: UnsafeMutablePointer<Float>, floor: Float, filter: VectorFilter,
        into heap: inout TopK
    ) {
        // The bar a score must clear, read from the heap only when it may have risen: most
        // scores fail one comparison with a local.
        var bar = heap.threshold
        for index in 0..<block.count {
            let score = scores[index]
            guard score > bar, score >= floor else { continue }
            let row = block.row(index)
            guard filter.accepts(flag: flags[row], topicID: topicIDs[row], createdTime: createdTimes[row]) else {
                continue
            }
            heap.insert(score: score, row: row)
            bar = heap.threshold
        }
    }

    /// Calls `body` with the rows the filter's namespace holds (`nil`: every row, in order) and
    /// their number.
    private func withRows<Result>(of filter: VectorFilter, _ body: (UnsafeBufferPointer<Int32>?, Int) -> Result)
        -> Result
    {
        guard let members = rows(ofNamespace: filter.namespaceCode) else { return body(nil, count) }
        return members.withUnsafeBufferPointer { body($0, $0.count) }
    }

    /// The `k` best of `candidates` (rows; their scores are ignored) by float dot product with
    /// `query`, at or above `floor`.
    func rescore(
        _ candidates: [TopK.Entry], query: [Float], k: Int, floor: Float,
        instructionSet: KernelInstructionSet = .preferred
    ) -> [Match] {
        var best = TopK(capacity: k)
        vectors.withUnsafeBufferPointer { vectors in
            query.withUnsafeBufferPointer { query in
                for candidate in candidates {
                    let score = VectorMath.dot(
                        vectors.baseAddress! + candidate.row * dimension, query.baseAddress!,
                        count: dimension, using: instructionSet)
                    if score >= floor { best.insert(score: score, row: candidate.row) }
                }
            }
        }
        return best.sorted().map { Match(id: ids[$0.row], similarity: $0.score) }
    }
}

/// Hands out the chunks of a scan (or the nodes of a graph's build), in order, to the threads
/// that ask.
final class ChunkQueue: @unchecked Sendable {
    private let lock = NSLock()
    private let count: Int
    private var taken = 0

    init(count: Int) { self.count = count }

    /// The index of the next chunk, or `nil` when every chunk is taken.
    func next() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard taken < count else { return nil }
        taken += 1
        return taken - 1
    }
}

/// Hands the per-thread heaps and the scan closure to `concurrentPerform`, whose iterations each
/// write a distinct heap and only read the snapshot. (The work run alongside is `@Sendable`
/// and needs no such wrapper.)
private struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
