/// A block of rows the vector scan scores with one kernel call: the consecutive rows
/// `first ..< first + count`, or the `count` rows listed at `rows` (a namespace's members).
///
/// Scoring a block at once, then choosing among its scores, keeps the per-row work of the scan
/// to the dot product itself: one call per block instead of one per row, rows read in order
/// (so the hardware prefetches them), and the filter tested only for rows that would enter the
/// top k.
struct ScanBlock {
    /// The listed rows, or `nil` for consecutive rows from `first`.
    let rows: UnsafePointer<Int32>?
    let first: Int
    let count: Int

    /// The most rows scored per call: their scores (1 KB) stay in L1 for the selection after.
    static let capacity = 256

    /// The row of the block's `index`-th score.
    @inline(__always)
    func row(_ index: Int) -> Int {
        rows.map { Int($0[index]) } ?? first &+ index
    }

    /// Splits `positions` of a scan into blocks of at most ``capacity`` rows and calls `body`
    /// with each block and a buffer of at least `block.count` scores for it.
    static func forEach(
        in positions: Range<Int>, of members: UnsafeBufferPointer<Int32>?,
        _ body: (ScanBlock, UnsafeMutablePointer<Float>) -> Void
    ) {
        withUnsafeTemporaryAllocation(of: Float.self, capacity: capacity) { scores in
            var start = positions.lowerBound
            while start < positions.upperBound {
                let count = Swift.min(capacity, positions.upperBound - start)
                body(
                    ScanBlock(rows: members.map { $0.baseAddress! + start }, first: start, count: count),
                    scores.baseAddress!)
                start += count
            }
        }
    }
}
