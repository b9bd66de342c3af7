import Foundation
internal import MnemoKernels

/// The instruction set of the hot loops: the matrix products of the sentence encoder and the
/// dot products of the vector scan.
///
/// A Swift package cannot choose the `-target-cpu` its users build with, and on x86-64 the
/// default is the SSE2 baseline. So the loops exist twice: in plain Swift SIMD (``portable``, the
/// reference, which the compiler turns into SSE2 on x86-64 and NEON on arm64), and in the small C
/// target `MnemoKernels`, compiled for AVX2 + FMA through function attributes (``avx2``). The
/// best one this CPU runs is chosen once per process (``preferred``).
///
/// There is no AVX-512 path: an int8 scan with AVX-512 VNNI (64 codes per instruction) was
/// measured on a CPU that has it, and ran no faster than AVX2 (1.09 against 1.04 ms for 100k
/// rows on 2 threads): arithmetic is not what bounds the scan, memory and its bookkeeping are.
///
/// The paths agree to rounding, not bit for bit: fused multiply-adds round once where the
/// portable path rounds twice. The int8 scan's integer dot products are exact on every path.
package enum KernelInstructionSet: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Plain Swift SIMD: SSE2 on x86-64 (the default build's baseline), NEON on arm64.
    case portable
    /// The C kernels compiled for AVX2 and FMA (x86-64 only).
    case avx2

    /// The paths this CPU can run, ``portable`` first, the fastest last.
    package static let available: [KernelInstructionSet] = {
        mnemo_cpu_supports_avx2_fma() != 0 ? [.portable, .avx2] : [.portable]
    }()

    /// The path used unless a caller asks for another: the environment variable `MNEMO_KERNELS`
    /// (`portable` or `avx2`) when it names a path this CPU runs, else the fastest available.
    package static let preferred: KernelInstructionSet = {
        if let name = ProcessInfo.processInfo.environment["MNEMO_KERNELS"], !name.isEmpty {
            if let forced = KernelInstructionSet(rawValue: name.lowercased()), available.contains(forced) {
                return forced
            }
            let names = available.map(\.rawValue).joined(separator: ", ")
            let problem =
                KernelInstructionSet(rawValue: name.lowercased()) == nil
                ? "is not a kernel path" : "is not available on this CPU"
            FileHandle.standardError.write(
                Data(
                    "mnemo: MNEMO_KERNELS=\(name) \(problem) (available: \(names)); using \(available.last!.rawValue)\n"
                        .utf8))
        }
        return available.last!
    }()

    /// The name reported by benchmarks: the path, and for the portable one what the compiler
    /// made of it.
    package var description: String {
        switch self {
        case .avx2: return "avx2+fma"
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
