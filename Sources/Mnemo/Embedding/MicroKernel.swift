import Dispatch
import Foundation

/// The innermost loop of the matrix multiplication: a 4-row × 16-column tile of `C = A·B`, with `B`
/// one packed panel of a ``PackedLinear``.
///
/// Two register layouts exist because the best one depends on the vector width the compiler
/// targets, which plain Swift cannot test with `#if`: x86-64 builds default to 128-bit SSE, where
/// `SIMD8<Float>` costs two registers and a 4×16 tile of them spills; built for AVX2
/// (`-Xswiftc -target-cpu -Xswiftc haswell`) or on ARM with wide units, the `SIMD8` layout is the
/// fastest. ``preferred`` times both once per process and keeps the faster.
///
/// Both kernels add the products for one output in the same order (k = 0, 1, 2…), one rounding
/// per multiply and per add, so they give bit-identical results: which one runs never changes a
/// vector, and a text encoded alone or inside a batch gives exactly the same floats.
enum MicroKernel: String, Sendable, CaseIterable {
    /// 4 rows × two `SIMD8<Float>`: eight accumulators, for 256-bit and wider vector units.
    case wide
    /// Twice 2 rows × four `SIMD4<Float>`: eight 128-bit accumulators, for SSE.
    case narrow

    /// The rows of `C` computed per call; the caller pads row counts to a multiple of it.
    static let rows = 4

    /// Computes the tile. `a` points at row 0, column k0 of `A` (row stride `lda`); `b` at row k0 of
    /// the panel; `c` at the tile's top-left element (row stride `ldc`). With `accumulate`, the tile
    /// is added to what `c` holds (used for the second and later blocks of the inner dimension).
    @inline(__always)
    func run(_ a: UnsafePointer<Float>, _ lda: Int, _ b: UnsafePointer<Float>,
             _ c: UnsafeMutablePointer<Float>, _ ldc: Int, _ k: Int, _ accumulate: Bool) {
        switch self {
        case .wide: wideKernel(a, lda, b, c, ldc, k, accumulate)
        case .narrow:
            narrowKernel(a, lda, b, c, ldc, k, accumulate)
            narrowKernel(a + 2 * lda, lda, b, c + 2 * ldc, ldc, k, accumulate)
        }
    }

    /// The faster kernel on this machine and build, measured once (a few milliseconds).
    ///
    /// The environment variable `MNEMO_MATRIX_KERNEL` (`wide` or `narrow`) forces one, for measurements.
    static let preferred: MicroKernel = {
        if let forced = ProcessInfo.processInfo.environment["MNEMO_MATRIX_KERNEL"], let kernel = MicroKernel(rawValue: forced) {
            return kernel
        }
        return allCases.min { $0.benchmark() < $1.benchmark() } ?? .wide
    }()

    /// The best time, in nanoseconds, of a few runs over a 64×384×128 problem (about 6 MFLOP).
    private func benchmark() -> UInt64 {
        let rows = 64, depth = 384, panels = 8
        let a = FloatBuffer(count: rows * depth)
        let b = FloatBuffer(count: panels * depth * 16)
        let c = FloatBuffer(count: rows * panels * 16)
        for i in 0..<a.count { a.pointer[i] = Float(i % 13) * 0.01 }
        for i in 0..<b.count { b.pointer[i] = Float(i % 7) * 0.01 }
        var best = UInt64.max
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            for p in 0..<panels {
                for r in stride(from: 0, to: rows, by: Self.rows) {
                    run(a.pointer + r * depth, depth, b.pointer + p * depth * 16, c.pointer + r * panels * 16 + p * 16,
                        panels * 16, depth, false)
                }
            }
            best = min(best, DispatchTime.now().uptimeNanoseconds - start)
        }
        return best
    }
}

/// `acc + x·y`; fused on ARM, where every core has FMA, but a separate multiply and add on x86,
/// whose baseline (SSE2) has no FMA instruction: there a fused form would become a library call.
@inline(__always)
private func multiplyAdd(_ acc: SIMD8<Float>, _ x: SIMD8<Float>, _ y: SIMD8<Float>) -> SIMD8<Float> {
    #if arch(arm64)
    return acc.addingProduct(x, y)
    #else
    return acc + x * y
    #endif
}

@inline(__always)
private func multiplyAdd(_ acc: SIMD4<Float>, _ x: SIMD4<Float>, _ y: SIMD4<Float>) -> SIMD4<Float> {
    #if arch(arm64)
    return acc.addingProduct(x, y)
    #else
    return acc + x * y
    #endif
}

@inline(never)
private func wideKernel(_ a: UnsafePointer<Float>, _ lda: Int, _ b: UnsafePointer<Float>,
                        _ c: UnsafeMutablePointer<Float>, _ ldc: Int, _ k: Int, _ accumulate: Bool) {
    typealias V = SIMD8<Float>
    let c0 = UnsafeMutableRawPointer(c), c1 = UnsafeMutableRawPointer(c + ldc)
    let c2 = UnsafeMutableRawPointer(c + 2 * ldc), c3 = UnsafeMutableRawPointer(c + 3 * ldc)
    var s00 = V(), s01 = V(), s10 = V(), s11 = V(), s20 = V(), s21 = V(), s30 = V(), s31 = V()
    if accumulate {
        s00 = c0.loadUnaligned(as: V.self); s01 = c0.loadUnaligned(fromByteOffset: 32, as: V.self)
        s10 = c1.loadUnaligned(as: V.self); s11 = c1.loadUnaligned(fromByteOffset: 32, as: V.self)
        s20 = c2.loadUnaligned(as: V.self); s21 = c2.loadUnaligned(fromByteOffset: 32, as: V.self)
        s30 = c3.loadUnaligned(as: V.self); s31 = c3.loadUnaligned(fromByteOffset: 32, as: V.self)
    }
    let a0 = a, a1 = a + lda, a2 = a + 2 * lda, a3 = a + 3 * lda
    var panel = UnsafeRawPointer(b)
    for i in 0..<k {
        let b0 = panel.loadUnaligned(as: V.self)
        let b1 = panel.loadUnaligned(fromByteOffset: 32, as: V.self)
        panel += 64
        let x0 = V(repeating: a0[i]); s00 = multiplyAdd(s00, x0, b0); s01 = multiplyAdd(s01, x0, b1)
        let x1 = V(repeating: a1[i]); s10 = multiplyAdd(s10, x1, b0); s11 = multiplyAdd(s11, x1, b1)
        let x2 = V(repeating: a2[i]); s20 = multiplyAdd(s20, x2, b0); s21 = multiplyAdd(s21, x2, b1)
        let x3 = V(repeating: a3[i]); s30 = multiplyAdd(s30, x3, b0); s31 = multiplyAdd(s31, x3, b1)
    }
    c0.storeBytes(of: s00, as: V.self); c0.storeBytes(of: s01, toByteOffset: 32, as: V.self)
    c1.storeBytes(of: s10, as: V.self); c1.storeBytes(of: s11, toByteOffset: 32, as: V.self)
    c2.storeBytes(of: s20, as: V.self); c2.storeBytes(of: s21, toByteOffset: 32, as: V.self)
    c3.storeBytes(of: s30, as: V.self); c3.storeBytes(of: s31, toByteOffset: 32, as: V.self)
}

@inline(never)
private func narrowKernel(_ a: UnsafePointer<Float>, _ lda: Int, _ b: UnsafePointer<Float>,
                          _ c: UnsafeMutablePointer<Float>, _ ldc: Int, _ k: Int, _ accumulate: Bool) {
    typealias V = SIMD4<Float>
    let c0 = UnsafeMutableRawPointer(c), c1 = UnsafeMutableRawPointer(c + ldc)
    var s00 = V(), s01 = V(), s02 = V(), s03 = V(), s10 = V(), s11 = V(), s12 = V(), s13 = V()
    if accumulate {
        s00 = c0.loadUnaligned(as: V.self); s01 = c0.loadUnaligned(fromByteOffset: 16, as: V.self)
        s02 = c0.loadUnaligned(fromByteOffset: 32, as: V.self); s03 = c0.loadUnaligned(fromByteOffset: 48, as: V.self)
        s10 = c1.loadUnaligned(as: V.self); s11 = c1.loadUnaligned(fromByteOffset: 16, as: V.self)
        s12 = c1.loadUnaligned(fromByteOffset: 32, as: V.self); s13 = c1.loadUnaligned(fromByteOffset: 48, as: V.self)
    }
    let a0 = a, a1 = a + lda
    var panel = UnsafeRawPointer(b)
    for i in 0..<k {
        let b0 = panel.loadUnaligned(as: V.self)
        let b1 = panel.loadUnaligned(fromByteOffset: 16, as: V.self)
        let b2 = panel.loadUnaligned(fromByteOffset: 32, as: V.self)
        let b3 = panel.loadUnaligned(fromByteOffset: 48, as: V.self)
        panel += 64
        let x0 = V(repeating: a0[i])
        s00 = multiplyAdd(s00, x0, b0); s01 = multiplyAdd(s01, x0, b1)
        s02 = multiplyAdd(s02, x0, b2); s03 = multiplyAdd(s03, x0, b3)
        let x1 = V(repeating: a1[i])
        s10 = multiplyAdd(s10, x1, b0); s11 = multiplyAdd(s11, x1, b1)
        s12 = multiplyAdd(s12, x1, b2); s13 = multiplyAdd(s13, x1, b3)
    }
    c0.storeBytes(of: s00, as: V.self); c0.storeBytes(of: s01, toByteOffset: 16, as: V.self)
    c0.storeBytes(of: s02, toByteOffset: 32, as: V.self); c0.storeBytes(of: s03, toByteOffset: 48, as: V.self)
    c1.storeBytes(of: s10, as: V.self); c1.storeBytes(of: s11, toByteOffset: 16, as: V.self)
    c1.storeBytes(of: s12, toByteOffset: 32, as: V.self); c1.storeBytes(of: s13, toByteOffset: 48, as: V.self)
}
