import Foundation
import Mnemo

/// Element-wise and row-wise operations of the transformer, vectorised with `SIMD8<Float>`.
enum TransformerMath {
    // erf(t) ≈ t·P(t²)/Q(t²) on |t| ≤ 4, a rational fit made for this file (relative error below
    // 4e-7 when evaluated in Float, against 6e-8 for one rounding); beyond 4, erf is ±1 in Float.
    private static let p0: Float = 1.1283790940190794, p1: Float = 0.2071063421952453
    private static let p2: Float = 0.051522344807149914, p3: Float = 0.003989800853009292
    private static let p4: Float = 0.000147270981976335, p5: Float = -1.9423256229431085e-06
    private static let p6: Float = 1.9112585986080788e-08
    private static let q1: Float = 0.5168744659774377, q2: Float = 0.11796290673394641
    private static let q3: Float = 0.014956459381423119, q4: Float = 0.0010209360210806178

    /// The error function of eight values at once.
    @inline(__always)
    static func erf(_ x: SIMD8<Float>) -> SIMD8<Float> {
        // `replacing(with:where:)` rather than `clamped`: the latter is not inlined and costs a call.
        var t = x.replacing(with: 4, where: x .> 4)
        t = t.replacing(with: -4, where: t .< -4)
        let t2 = t * t
        var p = SIMD8<Float>(repeating: p6)
        p = p * t2 + p5
        p = p * t2 + p4
        p = p * t2 + p3
        p = p * t2 + p2
        p = p * t2 + p1
        p = p * t2 + p0
        var q = SIMD8<Float>(repeating: q4)
        q = q * t2 + q3
        q = q * t2 + q2
        q = q * t2 + q1
        q = q * t2 + 1
        return t * p / q
    }

    /// The error function of one value, with the same approximation as the vector form.
    @inline(__always)
    static func erf(_ x: Float) -> Float {
        let t = min(max(x, -4), 4)
        let t2 = t * t
        let p = ((((((p6 * t2 + p5) * t2 + p4) * t2 + p3) * t2 + p2) * t2 + p1) * t2 + p0)
        let q = ((((q4 * t2 + q3) * t2 + q2) * t2 + q1) * t2 + 1)
        return t * p / q
    }

    /// GELU in its exact form, `x·(1 + erf(x/√2))/2`, which BERT's `"gelu"` activation means.
    @inline(__always)
    static func gelu(_ x: SIMD8<Float>) -> SIMD8<Float> {
        0.5 * x * (1 + erf(x * Float(0.7071067811865476)))
    }

    /// Scalar GELU, for widths that are not a multiple of 8.
    @inline(__always)
    static func gelu(_ x: Float) -> Float {
        0.5 * x * (1 + erf(x * Float(0.7071067811865476)))
    }

    /// Layer normalisation of one row in place: `(x − mean)/√(var + ε)·γ + β`, with the biased variance
    /// as PyTorch computes it.
    static func layerNorm(
        _ row: UnsafeMutablePointer<Float>, count: Int, gamma: UnsafePointer<Float>,
        beta: UnsafePointer<Float>, epsilon: Float
    ) {
        let vectorEnd = count & ~7
        var sum = SIMD8<Float>()
        var i = 0
        while i < vectorEnd {
            sum += load8(row + i)
            i += 8
        }
        var total = sum.sum()
        while i < count {
            total += row[i]
            i += 1
        }
        let mean = total / Float(count)

        // Two passes instead of E[x²] − E[x]²: the residual stream can have a large mean, and the
        // one-pass formula would then lose the variance to cancellation.
        var squares = SIMD8<Float>()
        let meanVector = SIMD8<Float>(repeating: mean)
        i = 0
        while i < vectorEnd {
            let d = load8(row + i) - meanVector
            squares += d * d
            i += 8
        }
        var variance = squares.sum()
        while i < count {
            let d = row[i] - mean
            variance += d * d
            i += 1
        }
        variance /= Float(count)

        let scale = 1 / (variance + epsilon).squareRoot()
        let scaleVector = SIMD8<Float>(repeating: scale)
        i = 0
        while i < vectorEnd {
            let normalized = (load8(row + i) - meanVector) * scaleVector
            store8(normalized * load8(gamma + i) + load8(beta + i), row + i)
            i += 8
        }
        while i < count {
            row[i] = (row[i] - mean) * scale * gamma[i] + beta[i]
            i += 1
        }
    }

    /// `y += a·x` over `count` floats.
    @inline(__always)
    static func addScaled(_ x: UnsafePointer<Float>, scale a: Float, to y: UnsafeMutablePointer<Float>, count: Int) {
        let vectorEnd = count & ~7
        let scale = SIMD8<Float>(repeating: a)
        var i = 0
        while i < vectorEnd {
            store8(load8(y + i) + scale * load8(x + i), y + i)
            i += 8
        }
        while i < count {
            y[i] += a * x[i]
            i += 1
        }
    }

    @inline(__always)
    static func load8(_ pointer: UnsafePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
    }

    @inline(__always)
    static func load8(_ pointer: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
    }

    @inline(__always)
    static func store8(_ value: SIMD8<Float>, _ pointer: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: SIMD8<Float>.self)
    }
}
