internal import MnemoKernels

/// A query vector prepared for the int8 scan: quantized to -31...31 and split into 16-bit lanes
/// once, so the per-row work is as small as plain SSE2 allows.
///
/// The row codes are int8 (-127...127, see ``VectorMath/quantize(_:into:levels:)``). Swift's
/// generic SIMD conversions (`SIMD16<Int16>(truncatingIfNeeded:)`) are not inlined and ran
/// slower than the float scan, so ``dot(_:)`` widens a row's codes with shifts instead: each
/// 16-bit lane of a load holds two codes, `(x << 8) >> 8` sign-extends the first and `x >> 8`
/// the second; the query's codes were split into even and odd lanes here to match. A lane's two
/// products add up to at most 2 × 127 × 31 = 7,874, so four blocks of 16 codes can be summed in
/// 16 bits (31,496) before the sums are widened to 32 bits, which costs more than the products.
/// The coarser query codes move a score by about 0.002; the candidates are re-scored in float.
/// The AVX2 path (``KernelInstructionSet/avx2``) reads the same codes as plain int8 and returns
/// the same integers.
struct QuantizedQuery: Sendable {
    /// The largest query code.
    static let levels: Float = 31

    let dimension: Int
    /// The codes, -31...31, one per component.
    private let codes: [Int8]
    /// Each block of 16 codes (the last padded with zeros) as its even codes, then its odd codes.
    private let lanes: [SIMD8<Int16>]

    init(_ vector: [Float]) {
        dimension = vector.count
        var codes = [Int8](repeating: 0, count: vector.count)
        _ = vector.withUnsafeBufferPointer { source in
            codes.withUnsafeMutableBufferPointer { VectorMath.quantize(source, into: $0, levels: Self.levels) }
        }
        var lanes = [SIMD8<Int16>](repeating: .zero, count: 2 * ((codes.count + 15) / 16))
        for (index, code) in codes.enumerated() {
            lanes[2 * (index / 16) + index % 2][(index % 16) / 2] = Int16(code)
        }
        self.lanes = lanes
        self.codes = codes
    }

    /// Calls `body` with a kernel that returns the exact integer dot product of a row's codes
    /// with the query's, computed on `instructionSet`.
    func withKernel<Result>(
        using instructionSet: KernelInstructionSet = .preferred,
        _ body: (Kernel) throws -> Result
    ) rethrows -> Result {
        try lanes.withUnsafeBufferPointer { lanes in
            try codes.withUnsafeBufferPointer { codes in
                try body(
                    Kernel(
                        lanes: lanes.baseAddress!, codes: codes.baseAddress!, dimension: dimension,
                        instructionSet: instructionSet))
            }
        }
    }

    struct Kernel {
        let lanes: UnsafePointer<SIMD8<Int16>>
        let codes: UnsafePointer<Int8>
        let dimension: Int
        let instructionSet: KernelInstructionSet

        /// The exact dot product with `row`'s codes.
        @inline(__always)
        func dot(_ row: UnsafePointer<Int8>) -> Int32 {
            #if arch(x86_64)
                if instructionSet.scansWithAVX2 { return mnemo_avx2_dot_i8(row, codes, dimension) }
            #endif
            return portableDot(row)
        }

        /// The scores of a block of rows of the matrix `codes` (``dimension`` per row): each row's
        /// dot product times its scale.
        @inline(__always)
        func scores(
            _ block: ScanBlock, codes matrix: UnsafePointer<Int8>, scales: UnsafePointer<Float>,
            into scores: UnsafeMutablePointer<Float>
        ) {
            #if arch(x86_64)
                if instructionSet.scansWithAVX2 {
                    return mnemo_avx2_scores_i8(
                        matrix, dimension, block.rows, block.first, block.count, codes, scales, scores)
                }
            #endif
            for index in 0..<block.count {
                let row = block.row(index)
                scores[index] = Float(portableDot(matrix + row &* dimension)) * scales[row]
            }
        }

        /// The scores of the rows listed at `rows` (``dimension`` codes per row of `matrix`), as
        /// ``scores(_:codes:scales:into:)`` computes them, for the graph index's walk: on
        /// ``KernelInstructionSet/avx512`` with VNNI, the AVX-512 VNNI kernel (the same integers).
        @inline(__always)
        func scoresOfListed(
            _ rows: UnsafePointer<Int32>, count: Int, codes matrix: UnsafePointer<Int8>, scales: UnsafePointer<Float>,
            into scores: UnsafeMutablePointer<Float>
        ) {
            #if arch(x86_64)
                if instructionSet.walksWithVNNI {
                    return mnemo_avx512_vnni_scores_i8(matrix, dimension, rows, 0, count, codes, scales, scores)
                }
            #endif
            self.scores(ScanBlock(rows: rows, first: 0, count: count), codes: matrix, scales: scales, into: scores)
        }

        /// The plain-Swift dot product: the reference for the other paths.
        @inline(__always)
        func portableDot(_ row: UnsafePointer<Int8>) -> Int32 {
            let raw = UnsafeRawPointer(row)
            var low = SIMD4<Int32>()
            var high = SIMD4<Int32>()
            var index = 0
            while index &+ 64 <= dimension {
                let sums =
                    products(raw, index) &+ products(raw, index &+ 16)
                    &+ products(raw, index &+ 32) &+ products(raw, index &+ 48)
                widen(sums, &low, &high)
                index &+= 64
            }
            while index &+ 16 <= dimension {
                widen(products(raw, index), &low, &high)
                index &+= 16
            }
            let sum = (low &+ high).wrappedSum()
            return index == dimension ? sum : sum &+ tail(row, from: index)
        }

        /// The codes after the last whole block of 16, for dimensions that are not a multiple of 16.
        @inline(never)
        private func tail(_ row: UnsafePointer<Int8>, from start: Int) -> Int32 {
            (start..<dimension).reduce(0) { sum, index in
                sum &+ Int32(row[index]) &* Int32(lanes[2 * (index / 16) + index % 2][(index % 16) / 2])
            }
        }

        /// The products of the 16 codes at `index` with the query's, summed in pairs.
        @inline(__always)
        private func products(_ row: UnsafeRawPointer, _ index: Int) -> SIMD8<Int16> {
            let codes = row.loadUnaligned(fromByteOffset: index, as: SIMD8<Int16>.self)
            let block = lanes + (index &>> 3)
            return ((codes &<< 8) &>> 8) &* block[0] &+ (codes &>> 8) &* block[1]
        }

        /// Adds the 16-bit lanes of `sums` to 32-bit accumulators.
        @inline(__always)
        private func widen(_ sums: SIMD8<Int16>, _ low: inout SIMD4<Int32>, _ high: inout SIMD4<Int32>) {
            let wide = unsafeBitCast(sums, to: SIMD4<Int32>.self)
            low &+= (wide &<< 16) &>> 16
            high &+= wide &>> 16
        }
    }
}
