internal import MnemoKernels

/// Dot products and conversions for the vector index, in plain Swift SIMD so they vectorise on
/// every platform without Accelerate, and in C for AVX2 where the CPU has it
/// (see ``KernelInstructionSet``).
package enum VectorMath {
    /// The dot product of two float vectors of `count` components, on the process's preferred path.
    @inline(__always)
    package static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        dot(a, b, count: count, using: KernelInstructionSet.preferred)
    }

    /// The dot product of two float vectors of `count` components, on the given path (hot loops
    /// read ``KernelInstructionSet/preferred`` once and pass it here).
    @inline(__always)
    package static func dot(
        _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int,
        using instructionSet: KernelInstructionSet
    ) -> Float {
        #if arch(x86_64)
            if instructionSet.scansWithAVX2 { return mnemo_avx2_dot_f32(a, b, count) }
        #endif
        return portableDot(a, b, count: count)
    }

    /// The dot products of a block of rows of the matrix `vectors` (`dimension` per row) with
    /// `query`, on the given path.
    @inline(__always)
    static func scores(
        _ block: ScanBlock, vectors: UnsafePointer<Float>, dimension: Int, query: UnsafePointer<Float>,
        into scores: UnsafeMutablePointer<Float>, using instructionSet: KernelInstructionSet
    ) {
        #if arch(x86_64)
            if instructionSet.scansWithAVX2 {
                return mnemo_avx2_scores_f32(vectors, dimension, block.rows, block.first, block.count, query, scores)
            }
        #endif
        for index in 0..<block.count {
            scores[index] = portableDot(vectors + block.row(index) &* dimension, query, count: dimension)
        }
    }

    /// The plain-Swift dot product: the reference for the other paths.
    @inline(__always)
    package static func portableDot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        var acc0 = SIMD8<Float>()
        var acc1 = SIMD8<Float>()
        var acc2 = SIMD8<Float>()
        var acc3 = SIMD8<Float>()
        let rawA = UnsafeRawPointer(a)
        let rawB = UnsafeRawPointer(b)
        var index = 0
        // Four independent accumulators hide the latency of the additions.
        while index + 32 <= count {
            let offset = index * 4
            acc0 +=
                rawA.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
                * rawB.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            acc1 +=
                rawA.loadUnaligned(fromByteOffset: offset + 32, as: SIMD8<Float>.self)
                * rawB.loadUnaligned(fromByteOffset: offset + 32, as: SIMD8<Float>.self)
            acc2 +=
                rawA.loadUnaligned(fromByteOffset: offset + 64, as: SIMD8<Float>.self)
                * rawB.loadUnaligned(fromByteOffset: offset + 64, as: SIMD8<Float>.self)
            acc3 +=
                rawA.loadUnaligned(fromByteOffset: offset + 96, as: SIMD8<Float>.self)
                * rawB.loadUnaligned(fromByteOffset: offset + 96, as: SIMD8<Float>.self)
            index += 32
        }
        var sum = ((acc0 + acc1) + (acc2 + acc3)).sum()
        while index < count {
            sum += a[index] * b[index]
            index += 1
        }
        return sum
    }

    /// Scales `vector` to unit Euclidean length in place; a zero vector stays zero.
    ///
    /// The one normalisation of every embedder (the sentence encoder's pooled output and the
    /// hashing embedder's buckets). It divides by `max(norm, 1e-12)` as sentence-transformers
    /// does, and sums the squares in order, so the encoder's vectors stay bit for bit those it
    /// gave before this function was shared.
    package static func normalize(_ vector: inout [Float]) {
        var norm: Float = 0
        for value in vector { norm += value * value }
        norm = norm.squareRoot()
        let scale = 1 / max(norm, 1e-12)
        for index in vector.indices { vector[index] *= scale }
    }

    /// Symmetric int8 quantization: `vector ≈ codes × scale`, with the largest component at
    /// ±`levels` (at most 127).
    @discardableResult
    package static func quantize(
        _ vector: UnsafeBufferPointer<Float>, into codes: UnsafeMutableBufferPointer<Int8>, levels: Float = 127
    ) -> Float {
        let largest = vector.reduce(0) { max($0, abs($1)) }
        guard largest > 0 else {
            codes.update(repeating: 0)
            return 0
        }
        let scale = largest / levels
        for index in vector.indices {
            codes[index] = Int8((vector[index] / scale).rounded())
        }
        return scale
    }
}
