import Foundation
internal import MnemoKernels

/// The instruction set of the hot loops: the matrix products and attention of the sentence
/// encoder and the dot products of the vector scan.
///
/// A Swift package cannot choose the `-target-cpu` its users build with, and on x86-64 the
/// default is the SSE2 baseline. So the loops exist more than once: in plain Swift SIMD
/// (``portable``, the reference, which the compiler turns into SSE2 on x86-64 and NEON on arm64),
/// and in the small C target `MnemoKernels`, compiled through function attributes for AVX2 + FMA
/// (``avx2``) and for AVX-512 (``avx512``). The best one this CPU runs is chosen once per process
/// (``preferred``).
///
/// On ``avx512`` the encoder runs on AVX-512 kernels and the vector scan keeps the AVX2 ones: an
/// int8 scan with AVX-512 VNNI (64 codes per instruction) was measured on a CPU that has it and
/// ran no faster than AVX2 (see the Performance article, "Search latency"): arithmetic is not
/// what bounds the scan, memory and its bookkeeping are. The graph index scores its neighbour
/// lists with an AVX-512 VNNI kernel on ``avx512`` when the CPU has VNNI (``walksWithVNNI``); it
/// measured no faster than the AVX2 one either (see ApproximateSearch.md).
///
/// The paths agree to rounding, not bit for bit: fused multiply-adds round once where the
/// portable path rounds twice. ``avx2`` and ``avx512`` give the same matrix products (the same
/// chains of fused multiply-adds). The int8 scan's integer dot products are exact on every path.
package enum KernelInstructionSet: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Plain Swift SIMD: SSE2 on x86-64 (the default build's baseline), NEON on arm64.
    case portable
    /// The C kernels compiled for AVX2 and FMA (x86-64 only).
    case avx2
    /// The C kernels compiled for AVX-512 F, BW, DQ and VL (x86-64 only: Intel's servers since
    /// Skylake, AMD's since Zen 4), with the AVX2 kernels where AVX-512 gains nothing.
    case avx512

    /// The paths this CPU can run, ``portable`` first, the fastest last.
    package static let available: [KernelInstructionSet] = {
        var paths: [KernelInstructionSet] = [.portable]
        if mnemo_cpu_supports_avx2_fma() != 0 { paths.append(.avx2) }
        if mnemo_cpu_supports_avx512() != 0 { paths.append(.avx512) }
        return paths
    }()

    /// Whether the vector scan runs on the AVX2 kernels (it does on ``avx512`` too).
    package var scansWithAVX2: Bool { self != .portable }

    /// Whether this CPU runs AVX-512 VNNI (`vpdpbusd`) besides the AVX-512 of ``avx512``.
    package static let hasVNNI = mnemo_cpu_supports_avx512_vnni() != 0

    /// Whether the graph index scores its neighbour lists with the AVX-512 VNNI kernel: on
    /// ``avx512`` when the CPU has VNNI (see ``QuantizedQuery/Kernel/scoresOfListed(_:count:codes:scales:into:)``).
    package var walksWithVNNI: Bool { self == .avx512 && Self.hasVNNI }

    /// The path used unless a caller asks for another: the one the environment variable
    /// `MNEMO_KERNELS` (`portable`, `avx2` or `avx512`) names, else the fastest available.
    ///
    /// A library cannot fail over an environment variable, so a name that is not a path, or a path
    /// this CPU cannot run, is reported on standard error and the fastest path is used; the
    /// `mnemo` command line refuses to start instead (see ``requestedByEnvironment()``).
    package static let preferred: KernelInstructionSet = {
        do {
            return try requestedByEnvironment() ?? available.last!
        } catch {
            FileHandle.standardError.write(Data("mnemo: \(error); using \(available.last!.rawValue)\n".utf8))
            return available.last!
        }
    }()

    /// The path `MNEMO_KERNELS` forces, nil when it is unset or empty.
    ///
    /// - Throws: ``Unavailable`` when it names no path, or one this CPU cannot run.
    package static func requestedByEnvironment() throws(Unavailable) -> KernelInstructionSet? {
        guard let name = ProcessInfo.processInfo.environment["MNEMO_KERNELS"], !name.isEmpty else { return nil }
        return try named(name, source: "MNEMO_KERNELS=\(name)")
    }

    /// The path called `name` (case-insensitive), if `available` lists it.
    ///
    /// - Parameter source: How the error names the request (`--kernels avx512`, `MNEMO_KERNELS=avx512`).
    /// - Throws: ``Unavailable`` when `name` is no path, or a path missing from `available`.
    package static func named(
        _ name: String, source: String, available: [KernelInstructionSet] = available
    ) throws(Unavailable) -> KernelInstructionSet {
        guard let path = KernelInstructionSet(rawValue: name.lowercased()) else {
            throw Unavailable(request: source, reason: "is not a kernel path", available: available)
        }
        guard available.contains(path) else {
            throw Unavailable(request: source, reason: "is not available on this CPU", available: available)
        }
        return path
    }

    /// A kernel path was asked for that does not exist or that this CPU cannot run.
    package struct Unavailable: Error, CustomStringConvertible {
        /// The request as the user wrote it.
        package let request: String
        package let reason: String
        /// The paths this CPU runs.
        package let available: [KernelInstructionSet]

        package var description: String {
            "\(request) \(reason) (this CPU runs: \(available.map(\.rawValue).joined(separator: ", ")))"
        }
    }

    /// The name reported by benchmarks: the path, and for the portable one what the compiler
    /// made of it.
    package var description: String {
        switch self {
        case .avx2: return "avx2+fma"
        case .avx512: return "avx512"
        case .portable:
            #if arch(x86_64)
                return "portable (sse2)"
            #elseif arch(arm64)
                return "portable (neon)"
            #else
                return "portable"
            #endif
        }
    }
}
