import Foundation
import Mnemo

#if canImport(Darwin)
    import Darwin
#endif

/// The processor `mnemo bench` ran on (`machine` in its `--json`): machines of one kind can differ
/// twofold on the same load, so a figure says where it was measured.
struct BenchMachine: Encodable {
    /// The processor's name and, on x86, its family and model numbers, as the system reports them.
    let cpu = Self.processorName()
    /// The cores this process may run on.
    let cores = ProcessInfo.processInfo.activeProcessorCount
    /// The vector kernels' path (`portable`, `avx2`, `avx512`; `MNEMO_KERNELS` may choose a
    /// slower one) and whether the CPU has AVX-512 VNNI, which the graph uses on `avx512`.
    let kernels = KernelInstructionSet.preferred.rawValue
    let vnni = KernelInstructionSet.hasVNNI

    var description: String {
        "\(cpu), \(cores) cores, \(kernels) kernels"
            + (KernelInstructionSet.preferred.walksWithVNNI ? " with VNNI" : "")
    }

    private static func processorName() -> String {
        #if os(Linux)
            // "model name : AMD EPYC", "cpu family : 26", "model : 2": the name alone often
            // hides the generation on a virtual machine.
            guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
            var fields: [String: String] = [:]
            for line in info.split(separator: "\n").prefix(40) {
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let key = parts[0].trimmingCharacters(in: .whitespaces)
                if fields[key] == nil { fields[key] = parts[1].trimmingCharacters(in: .whitespaces) }
            }
            let name = fields["model name"] ?? "unknown"
            guard let family = fields["cpu family"], let model = fields["model"] else { return name }
            return "\(name) (family \(family) model \(model))"
        #elseif canImport(Darwin)
            var size = 0
            guard sysctlbyname("machdep.cpu.brand_string", nil, &size, nil, 0) == 0, size > 0 else { return "unknown" }
            var bytes = [CChar](repeating: 0, count: size)
            guard sysctlbyname("machdep.cpu.brand_string", &bytes, &size, nil, 0) == 0 else { return "unknown" }
            return String(cString: bytes)
        #else
            return "unknown"
        #endif
    }
}
