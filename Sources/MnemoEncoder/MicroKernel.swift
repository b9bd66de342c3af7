import Dispatch
import Foundation
import Mnemo

/// The innermost loop of the matrix multiplication: a 4-row × 16-column tile of `C = A·B`, with `B`
/// one packed panel of a ``PackedLinear``.
///
/// Two variants exist because the best one depends on the vector width the compiler targets,
/// which plain Swift cannot test with `#if`. x86-64 builds default to 128-bit SSE2, which has no
/// broadcast-from-memory instruction: every `SIMD4(repeating: a[k])` costs a shuffle on the same
/// ports as the arithmetic, and `SIMD8<Float>` costs two registers, so a 4×16 tile of them spills.
/// There, ``narrow`` reads rows of `A` that were copied beforehand as four-lane splats
/// (see ``packSplats(_:_:rows:depth:into:)``), and computes two 2×16 halves. Built for AVX2
/// (`-Xswiftc -target-cpu -Xswiftc haswell`) or on ARM, broadcasts are free loads and ``wide``,
/// 4 rows × two `SIMD8<Float>` read straight from `A`, is the faster. ``LinearLayerKernel/preferred``
/// times both once per process and keeps the faster.
///
/// Both add the products for one output in the same order (k = 0, 1, 2…), one rounding per
/// multiply and per add, so they give bit-identical results: which one runs never changes a vector,
/// and a text encoded alone or inside a batch gives exactly the same floats.
enum MicroKernel: String, Sendable, CaseIterable {
    /// 4 rows × two `SIMD8<Float>` read directly from `A`: for 256-bit and wider vector units.
    case wide
    /// Twice 2 rows × four `SIMD4<Float>`, `A` pre-broadcast into splats: for SSE.
    case narrow

    /// The rows of `C` computed per call; the caller pads row counts to a multiple of it.
    static let rows = 4

    /// Whether the kernel reads `A` as splats made by ``packSplats(_:_:rows:depth:into:)``.
    var readsSplats: Bool { self == .narrow }

    /// Computes one tile. `a` points at row 0, column k0 of `A` (row stride `lda`) for ``wide``,
    /// or at the tile's splats for ``narrow``; `b` at row k0 of the panel; `c` at the tile's
    /// top-left element (row stride `ldc`). With `accumulate`, the tile is added to what `c` holds
    /// (for the second and later blocks of the inner dimension).
    @inline(__always)
    func run(
        _ a: UnsafePointer<Float>, _ lda: Int, _ b: UnsafePointer<Float>,
        _ c: UnsafeMutablePointer<Float>, _ ldc: Int, _ k: Int, _ accumulate: Bool
    ) {
        switch self {
        case .wide:
            wideKernel(a, lda, b, c, ldc, k, accumulate)
        case .narrow:
            narrowKernel(UnsafeRawPointer(a), b, c, ldc, k, accumulate)
            narrowKernel(UnsafeRawPointer(a) + 32, b, c + 2 * ldc, ldc, k, accumulate)
        }
    }

    /// Copies `rows` (a multiple of 4) rows × `depth` columns of `A` as splats: for each group of
    /// four rows and each k, four `SIMD4` values each holding one row's `A[r][k]` in every lane.
    static func packSplats(
        _ a: UnsafePointer<Float>, _ lda: Int, rows: Int, depth: Int, into splats: UnsafeMutablePointer<Float>
    ) {
        var out = UnsafeMutableRawPointer(splats)
        for quad in stride(from: 0, to: rows, by: 4) {
            let a0 = a + quad * lda
            let a1 = a0 + lda
            let a2 = a1 + lda
            let a3 = a2 + lda
            for k in 0..<depth {
                out.storeBytes(of: SIMD4(repeating: a0[k]), as: SIMD4<Float>.self)
                out.storeBytes(of: SIMD4(repeating: a1[k]), toByteOffset: 16, as: SIMD4<Float>.self)
                out.storeBytes(of: SIMD4(repeating: a2[k]), toByteOffset: 32, as: SIMD4<Float>.self)
                out.storeBytes(of: SIMD4(repeating: a3[k]), toByteOffset: 48, as: SIMD4<Float>.self)
                out += 64
            }
        }
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
private func wideKernel(
    _ a: UnsafePointer<Float>, _ lda: Int, _ b: UnsafePointer<Float>,
    _ c: UnsafeMutablePointer<Float>, _ ldc: Int, _ k: Int, _ accumulate: Bool
) {
    typealias V = SIMD8<Float>
    let c0 = UnsafeMutableRawPointer(c)
    let c1 = UnsafeMutableRawPointer(c + ldc)
    let c2 = UnsafeMutableRawPointer(c + 2 * ldc)
    let c3 = UnsafeMutableRawPointer(c + 3 * ldc)
    var s00 = V()
    var s01 = V()
    var s10 = V()
    var s11 = V()
    var s20 = V()
    var s21 = V()
    var s30 = V()
    var s31 = V()
    if accumulate {
        s00 = c0.loadUnaligned(as: V.self)
        s01 = c0.loadUnaligned(fromByteOffset: 32, as: V.self)
        s10 = c1.loadUnaligned(as: V.self)
        s11 = c1.loadUnaligned(fromByteOffset: 32, as: V.self)
        s20 = c2.loadUnaligned(as: V.self)
        s21 = c2.loadUnaligned(fromByteOffset: 32, as: V.self)
        s30 = c3.loadUnaligned(as: V.self)
        s31 = c3.loadUnaligned(fromByteOffset: 32, as: V.self)
    }
    let a0 = a
    let a1 = a + lda
    let a2 = a + 2 * lda
    let a3 = a + 3 * lda
    var panel = UnsafeRawPointer(b)
    for i in 0..<k {
        let b0 = panel.loadUnaligned(as: V.self)
        let b1 = panel.loadUnaligned(fromByteOffset: 32, as: V.self)
        panel += 64
        let x0 = V(repeating: a0[i])
        s00 = multiplyAdd(s00, x0, b0)
        s01 = multiplyAdd(s01, x0, b1)
        let x1 = V(repeating: a1[i])
        s10 = multiplyAdd(s10, x1, b0)
        s11 = multiplyAdd(s11, x1, b1)
        let x2 = V(repeating: a2[i])
        s20 = multiplyAdd(s20, x2, b0)
        s21 = multiplyAdd(s21, x2, b1)
        let x3 = V(repeating: a3[i])
        s30 = multiplyAdd(s30, x3, b0)
        s31 = multiplyAdd(s31, x3, b1)
    }
    c0.storeBytes(of: s00, as: V.self)
    c0.storeBytes(of: s01, toByteOffset: 32, as: V.self)
    c1.storeBytes(of: s10, as: V.self)
    c1.storeBytes(of: s11, toByteOffset: 32, as: V.self)
    c2.storeBytes(of: s20, as: V.self)
    c2.storeBytes(of: s21, toByteOffset: 32, as: V.self)
    c3.storeBytes(of: s30, as: V.self)
    c3.storeBytes(of: s31, toByteOffset: 32, as: V.self)
}

/// 2 rows × 16 columns from splats: `s` holds, per k, the splats of four rows (64 bytes), of which
/// this call uses the first two; the caller offsets `s` by 32 bytes for rows 2 and 3.
@inline(never)
private func narrowKernel(
    _ s: UnsafeRawPointer, _ b: UnsafePointer<Float>,
    _ c: UnsafeMutablePointer<Float>, _ ldc: Int, _ k: Int, _ accumulate: Bool
) {
    typealias V = SIMD4<Float>
    let c0 = UnsafeMutableRawPointer(c)
    let c1 = UnsafeMutableRawPointer(c + ldc)
    var s00 = V()
    var s01 = V()
    var s02 = V()
    var s03 = V()
    var s10 = V()
    var s11 = V()
    var s12 = V()
    var s13 = V()
    if accumulate {
        s00 = c0.loadUnaligned(as: V.self)
        s01 = c0.loadUnaligned(fromByteOffset: 16, as: V.self)
        s02 = c0.loadUnaligned(fromByteOffset: 32, as: V.self)
        s03 = c0.loadUnaligned(fromByteOffset: 48, as: V.self)
        s10 = c1.loadUnaligned(as: V.self)
        s11 = c1.loadUnaligned(fromByteOffset: 16, as: V.self)
        s12 = c1.loadUnaligned(fromByteOffset: 32, as: V.self)
        s13 = c1.loadUnaligned(fromByteOffset: 48, as: V.self)
    }
    var panel = UnsafeRawPointer(b)
    var splat = s
    for _ in 0..<k {
        let b0 = panel.loadUnaligned(as: V.self)
        let b1 = panel.loadUnaligned(fromByteOffset: 16, as: V.self)
        let b2 = panel.loadUnaligned(fromByteOffset: 32, as: V.self)
        let b3 = panel.loadUnaligned(fromByteOffset: 48, as: V.self)
        panel += 64
        let x0 = splat.loadUnaligned(as: V.self)
        s00 = multiplyAdd(s00, x0, b0)
        s01 = multiplyAdd(s01, x0, b1)
        s02 = multiplyAdd(s02, x0, b2)
        s03 = multiplyAdd(s03, x0, b3)
        let x1 = splat.loadUnaligned(fromByteOffset: 16, as: V.self)
        s10 = multiplyAdd(s10, x1, b0)
        s11 = multiplyAdd(s11, x1, b1)
        s12 = multiplyAdd(s12, x1, b2)
        s13 = multiplyAdd(s13, x1, b3)
        splat += 64
    }
    c0.storeBytes(of: s00, as: V.self)
    c0.storeBytes(of: s01, toByteOffset: 16, as: V.self)
    c0.storeBytes(of: s02, toByteOffset: 32, as: V.self)
    c0.storeBytes(of: s03, toByteOffset: 48, as: V.self)
    c1.storeBytes(of: s10, as: V.self)
    c1.storeBytes(of: s11, toByteOffset: 16, as: V.self)
    c1.storeBytes(of: s12, toByteOffset: 32, as: V.self)
    c1.storeBytes(of: s13, toByteOffset: 48, as: V.self)
}
