import Dispatch
import Foundation
import Mnemo
internal import MnemoKernels

/// What happens to each output of a linear layer after the bias is added, while it is still in cache.
enum LinearEpilogue {
    /// Nothing more.
    case none
    /// Apply the exact GELU (the feed-forward layer's activation).
    case gelu
    /// Add a residual input with the given row stride (the skip connections).
    case residual(UnsafePointer<Float>, stride: Int)
}

/// Runs ``PackedLinear`` layers over many rows, on several threads.
///
/// The output is split by panels (groups of 16 outputs) between the workers, so every worker reads
/// all of the input but only its share of the weights, and no two workers write the same memory.
/// Inside a worker the loops are blocked for the caches: 64 rows of input and 384 inputs at a time,
/// so that a weight panel block (24 KB) stays in L1 while it meets 16 row quadruples, and the input
/// block stays in L2 while it meets every panel of the worker.
struct LinearLayerKernel: Sendable {
    /// The micro-kernel used for each 4×16 tile on the portable path.
    let microKernel: MicroKernel
    /// The number of threads to split each layer over.
    let workers: Int
    /// Whether tiles run on the portable Swift micro-kernels or on the C kernels of another
    /// instruction set (which do the tiles of a whole block in one call).
    var instructionSet: KernelInstructionSet = .portable
    /// The helper threads of the pass that runs this kernel, when it holds a team; else the
    /// parallel loops run on Dispatch's threads.
    var team: WorkerTeam?

    /// Whether ``apply(_:input:inputStride:rows:output:outputStride:epilogue:splats:)`` uses its
    /// `splats` scratch: only the portable path's narrow micro-kernel does.
    var readsSplats: Bool {
        #if arch(x86_64)
            if instructionSet != .portable { return false }
        #endif
        return microKernel.readsSplats
    }

    /// The rows a product over `count` token rows computes: exactly those on the C kernels, which
    /// take any number; on the portable path a multiple of ``MicroKernel/rows`` (the caller pads).
    /// A text of 17 tokens padded to 20 rows would spend 3 rows of every product on nothing.
    func rowsComputed(for count: Int) -> Int {
        #if arch(x86_64)
            if instructionSet != .portable { return count }
        #endif
        return (count + MicroKernel.rows - 1) / MicroKernel.rows * MicroKernel.rows
    }

    static let rowBlock = 64
    static let depthBlock = 384
    /// The scratch floats one worker needs to hold an input block as splats.
    static let splatFloatsPerWorker = rowBlock * depthBlock * 4

    /// The faster micro-kernel on this machine and build, measured once per process by timing a
    /// 64×384×128 layer with each (a few milliseconds in all).
    ///
    /// The environment variable `MNEMO_MATRIX_KERNEL` (`wide` or `narrow`) forces one, for measurements.
    static let preferred: MicroKernel = {
        if let forced = ProcessInfo.processInfo.environment["MNEMO_MATRIX_KERNEL"],
            let kernel = MicroKernel(rawValue: forced)
        {
            return kernel
        }
        let rows = 64
        let depth = 384
        let outputs = 128
        let layer = PackedLinear(
            weight: (0..<(outputs * depth)).map { Float($0 % 7) * 0.01 },
            bias: [Float](repeating: 0, count: outputs), outputSize: outputs, inputSize: depth)
        let input = FloatBuffer((0..<(rows * depth)).map { Float($0 % 13) * 0.01 })
        let output = FloatBuffer(count: rows * outputs)
        let splats = FloatBuffer(count: splatFloatsPerWorker)
        func time(_ kernel: MicroKernel) -> UInt64 {
            let runner = LinearLayerKernel(microKernel: kernel, workers: 1)
            var best = UInt64.max
            for _ in 0..<5 {
                let start = DispatchTime.now().uptimeNanoseconds
                runner.apply(
                    layer, input: input.pointer, inputStride: depth, rows: rows, output: output.pointer,
                    outputStride: outputs, epilogue: .none, splats: splats.pointer)
                best = min(best, DispatchTime.now().uptimeNanoseconds - start)
            }
            return best
        }
        return MicroKernel.allCases.min { time($0) < time($1) } ?? .wide
    }()

    /// Computes `output = epilogue(input·Wᵀ + b)` for `rows` rows.
    ///
    /// - Parameters:
    ///   - rows: Any number on the C kernels, else a multiple of ``MicroKernel/rows``
    ///     (``rowsComputed(for:)``); the caller pads its buffers accordingly.
    ///   - inputStride: The distance between input rows; at least `layer.inputSize`.
    ///   - outputStride: The distance between output rows; at least `layer.paddedOutputSize`.
    ///   - splats: Scratch of ``splatFloatsPerWorker`` floats per worker.
    func apply(
        _ layer: PackedLinear, input: UnsafePointer<Float>, inputStride: Int, rows: Int,
        output: UnsafeMutablePointer<Float>, outputStride: Int, epilogue: LinearEpilogue,
        splats: UnsafeMutablePointer<Float>
    ) {
        precondition(
            rowsComputed(for: rows) == rows && outputStride >= layer.paddedOutputSize
                && inputStride >= layer.inputSize)
        // Small layers are not worth waking a second thread for (tens of microseconds in a VM).
        let work = rows * layer.inputSize * layer.paddedOutputSize
        let workerCount = work < 1 << 20 ? 1 : max(1, min(workers, layer.panelCount))
        let source = SharedPointer(UnsafeMutablePointer(mutating: input))
        let destination = SharedPointer(output)
        let scratch = SharedPointer(splats)
        let residual: (SharedPointer, Int)?
        switch epilogue {
        case .residual(let pointer, let stride):
            residual = (SharedPointer(UnsafeMutablePointer(mutating: pointer)), stride)
        default: residual = nil
        }
        let applyGELU: Bool
        if case .gelu = epilogue { applyGELU = true } else { applyGELU = false }

        let task: @Sendable (Int) -> Void = { worker in
            let firstPanel = layer.panelCount * worker / workerCount
            let endPanel = layer.panelCount * (worker + 1) / workerCount
            self.run(
                layer, input: source.base, inputStride: inputStride, rows: rows, output: destination.base,
                outputStride: outputStride, panels: firstPanel..<endPanel, gelu: applyGELU,
                residual: residual.map { (UnsafePointer($0.0.base), $0.1) },
                splats: scratch.base + worker * Self.splatFloatsPerWorker)
        }
        parallel(iterations: workerCount, task)
    }

    /// Calls `body(i)` for every `i` in `0..<iterations`, in parallel: on ``team`` when there is
    /// one, else on Dispatch's threads.
    func parallel(iterations: Int, _ body: @Sendable (Int) -> Void) {
        if iterations == 1 {
            body(0)
        } else if let team {
            team.run(iterations: iterations, body)
        } else {
            DispatchQueue.concurrentPerform(iterations: iterations, execute: body)
        }
    }

    private func run(
        _ layer: PackedLinear, input: UnsafeMutablePointer<Float>, inputStride: Int, rows: Int,
        output: UnsafeMutablePointer<Float>, outputStride: Int, panels: Range<Int>, gelu: Bool,
        residual: (UnsafePointer<Float>, Int)?, splats: UnsafeMutablePointer<Float>
    ) {
        guard !panels.isEmpty else { return }
        let depth = layer.inputSize
        let width = PackedLinear.panelWidth
        let kernel = microKernel
        var rowStart = 0
        while rowStart < rows {
            let rowEnd = min(rowStart + Self.rowBlock, rows)
            var depthStart = 0
            while depthStart < depth {
                let depthCount = min(Self.depthBlock, depth - depthStart)
                #if arch(x86_64)
                    if instructionSet != .portable {
                        let sgemm = instructionSet == .avx512 ? mnemo_avx512_sgemm_panels : mnemo_avx2_sgemm_panels
                        sgemm(
                            input + rowStart * inputStride + depthStart, inputStride, rowEnd - rowStart,
                            layer.panels.pointer + panels.lowerBound * depth * width + depthStart * width,
                            depth * width, panels.count, depthCount,
                            output + rowStart * outputStride + panels.lowerBound * width, outputStride,
                            depthStart > 0 ? 1 : 0)
                        depthStart += depthCount
                        continue
                    }
                #endif
                if readsSplats {
                    MicroKernel.packSplats(
                        input + rowStart * inputStride + depthStart, inputStride,
                        rows: rowEnd - rowStart, depth: depthCount, into: splats)
                }
                for panel in panels {
                    let weights = layer.panels.pointer + panel * depth * width + depthStart * width
                    var row = rowStart
                    while row < rowEnd {
                        let a =
                            readsSplats
                            ? UnsafePointer(splats + (row - rowStart) * depthCount * 4)
                            : UnsafePointer(input + row * inputStride + depthStart)
                        kernel.run(
                            a, inputStride, weights, output + row * outputStride + panel * width, outputStride,
                            depthCount, depthStart > 0)
                        row += MicroKernel.rows
                    }
                }
                depthStart += depthCount
            }
            finish(
                rows: rowStart..<rowEnd, columns: (panels.lowerBound * width)..<(panels.upperBound * width),
                output: output, outputStride: outputStride, bias: layer.bias.pointer, gelu: gelu, residual: residual)
            rowStart = rowEnd
        }
    }

    /// Adds the bias, then the activation or the residual, to a block of finished outputs.
    @inline(__always)
    private func finish(
        rows: Range<Int>, columns: Range<Int>, output: UnsafeMutablePointer<Float>, outputStride: Int,
        bias: UnsafePointer<Float>, gelu: Bool, residual: (UnsafePointer<Float>, Int)?
    ) {
        #if arch(x86_64)
            if instructionSet == .avx512 {
                return mnemo_avx512_finish_rows(
                    output + rows.lowerBound * outputStride + columns.lowerBound, outputStride, rows.count,
                    columns.count, bias + columns.lowerBound, gelu ? 1 : 0,
                    residual.map { $0.0 + rows.lowerBound * $0.1 + columns.lowerBound }, residual?.1 ?? 0)
            }
        #endif
        // Column ranges are whole panels, so always a multiple of 8 (of 16 for the C kernel).
        for row in rows {
            let line = output + row * outputStride
            var column = columns.lowerBound
            if let (skip, skipStride) = residual {
                let skipLine = skip + row * skipStride
                while column < columns.upperBound {
                    let value =
                        TransformerMath.load8(line + column) + TransformerMath.load8(bias + column)
                        + TransformerMath.load8(skipLine + column)
                    TransformerMath.store8(value, line + column)
                    column += 8
                }
            } else if gelu {
                while column < columns.upperBound {
                    let value = TransformerMath.load8(line + column) + TransformerMath.load8(bias + column)
                    TransformerMath.store8(TransformerMath.gelu(value), line + column)
                    column += 8
                }
            } else {
                while column < columns.upperBound {
                    TransformerMath.store8(
                        TransformerMath.load8(line + column) + TransformerMath.load8(bias + column), line + column)
                    column += 8
                }
            }
        }
    }
}
