import Foundation
import Mnemo
internal import MnemoKernels

/// Self-attention of one head over one sequence: the work item of the encoder's attention.
///
/// The portable path is plain Swift SIMD with libm's `exp`, the reference; the AVX2 and AVX-512
/// paths are the C kernels `mnemo_avx2_attention_head` and `mnemo_avx512_attention_head` (fused
/// multiply-adds, eight or sixteen lanes, and a polynomial exponential within 8e-8 of the exact
/// one). Tests compare them.
enum HeadAttention {
    /// For each token `i` of the sequence, writes `Σ_j w_ij · v_j` to `context + i · contextStride`,
    /// where `w_i` is the softmax over the sequence's tokens `j` of `scale · q_i · k_j`. Query, key
    /// and value `i` are the `headSize` floats at `queries`, `keys` and `values` + `i · stride`.
    ///
    /// `scratch` must hold ``scratchCount(length:headSize:)`` floats.
    /// The scratch floats ``attend(queries:keys:values:stride:length:headSize:scale:context:contextStride:scratch:using:)``
    /// needs on any path: the keys transposed and four rows of scores, `length` padded to 16.
    static func scratchCount(length: Int, headSize: Int) -> Int {
        (headSize + 4) * ((length + 15) & ~15)
    }

    static func attend(
        queries: UnsafePointer<Float>, keys: UnsafePointer<Float>, values: UnsafePointer<Float>, stride: Int,
        length: Int, headSize: Int, scale: Float, context: UnsafeMutablePointer<Float>, contextStride: Int,
        scratch: UnsafeMutablePointer<Float>, using instructionSet: KernelInstructionSet
    ) {
        #if arch(x86_64)
            if instructionSet == .avx512 {
                return mnemo_avx512_attention_head(
                    queries, keys, values, stride, length, headSize, scale, context, contextStride, scratch)
            }
            if instructionSet == .avx2 {
                return mnemo_avx2_attention_head(
                    queries, keys, values, stride, length, headSize, scale, context, contextStride, scratch)
            }
        #endif
        let paddedLength = (length + 7) & ~7
        let keysT = scratch
        let scores = scratch + headSize * paddedLength
        // Keys transposed (one row per head dimension) so scores for 8 keys come from one vector op.
        for j in 0..<length {
            for c in 0..<headSize { keysT[c * paddedLength + j] = keys[j * stride + c] }
        }
        for c in 0..<headSize {
            for j in length..<paddedLength { keysT[c * paddedLength + j] = 0 }
        }
        for i in 0..<length {
            let query = queries + i * stride
            var j = 0
            while j < paddedLength {
                var sum = SIMD8<Float>()
                for c in 0..<headSize {
                    sum += SIMD8(repeating: query[c]) * TransformerMath.load8(keysT + c * paddedLength + j)
                }
                TransformerMath.store8(sum * scale, scores + j)
                j += 8
            }
            var maximum = -Float.infinity
            for j in 0..<length { maximum = max(maximum, scores[j]) }
            var total: Float = 0
            for j in 0..<length {
                let e = Foundation.exp(scores[j] - maximum)
                scores[j] = e
                total += e
            }
            let inverse = 1 / total
            let output = context + i * contextStride
            output.update(repeating: 0, count: headSize)
            for j in 0..<length {
                TransformerMath.addScaled(values + j * stride, scale: scores[j] * inverse, to: output, count: headSize)
            }
        }
    }
}
