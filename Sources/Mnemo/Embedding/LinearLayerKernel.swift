import Dispatch

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
/// Inside a worker the loops are blocked for the caches: 64 rows of input at a time, 256 inputs of
/// the weights at a time, so that a weight panel block (16 KB) stays in L1 while it meets 16 row
/// quadruples, and the input block (64 KB) stays in L2 while it meets every panel.
struct LinearLayerKernel: Sendable {
    /// The micro-kernel used for each 4×16 tile.
    let microKernel: MicroKernel
    /// The number of threads to split each layer over.
    let workers: Int

    private static let rowBlock = 64
    private static let depthBlock = 256

    /// Computes `output = epilogue(input·Wᵀ + b)` for `rows` rows.
    ///
    /// - Parameters:
    ///   - rows: A multiple of ``MicroKernel/rows``; the caller pads its buffers accordingly.
    ///   - inputStride: The distance between input rows; at least `layer.inputSize`.
    ///   - outputStride: The distance between output rows; at least `layer.paddedOutputSize`.
    func apply(_ layer: PackedLinear, input: UnsafePointer<Float>, inputStride: Int, rows: Int,
               output: UnsafeMutablePointer<Float>, outputStride: Int, epilogue: LinearEpilogue) {
        precondition(rows % MicroKernel.rows == 0 && outputStride >= layer.paddedOutputSize && inputStride >= layer.inputSize)
        let workerCount = max(1, min(workers, layer.panelCount))
        let source = SharedPointer(UnsafeMutablePointer(mutating: input))
        let destination = SharedPointer(output)
        let residual: (SharedPointer, Int)?
        switch epilogue {
        case .residual(let pointer, let stride): residual = (SharedPointer(UnsafeMutablePointer(mutating: pointer)), stride)
        default: residual = nil
        }
        let applyGELU: Bool
        if case .gelu = epilogue { applyGELU = true } else { applyGELU = false }

        let work: @Sendable (Int) -> Void = { worker in
            let firstPanel = layer.panelCount * worker / workerCount
            let endPanel = layer.panelCount * (worker + 1) / workerCount
            self.run(layer, input: source.base, inputStride: inputStride, rows: rows, output: destination.base,
                     outputStride: outputStride, panels: firstPanel..<endPanel, gelu: applyGELU,
                     residual: residual.map { (UnsafePointer($0.0.base), $0.1) })
        }
        if workerCount == 1 {
            work(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: workerCount, execute: work)
        }
    }

    private func run(_ layer: PackedLinear, input: UnsafeMutablePointer<Float>, inputStride: Int, rows: Int,
                     output: UnsafeMutablePointer<Float>, outputStride: Int, panels: Range<Int>, gelu: Bool,
                     residual: (UnsafePointer<Float>, Int)?) {
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
                for panel in panels {
                    let weights = layer.panels.pointer + panel * depth * width + depthStart * width
                    var row = rowStart
                    while row < rowEnd {
                        kernel.run(input + row * inputStride + depthStart, inputStride, weights,
                                   output + row * outputStride + panel * width, outputStride, depthCount, depthStart > 0)
                        row += MicroKernel.rows
                    }
                }
                depthStart += depthCount
            }
            finish(rows: rowStart..<rowEnd, columns: (panels.lowerBound * width)..<(panels.upperBound * width),
                   output: output, outputStride: outputStride, bias: layer.bias.pointer, gelu: gelu, residual: residual)
            rowStart = rowEnd
        }
    }

    /// Adds the bias, then the activation or the residual, to a block of finished outputs.
    @inline(__always)
    private func finish(rows: Range<Int>, columns: Range<Int>, output: UnsafeMutablePointer<Float>, outputStride: Int,
                        bias: UnsafePointer<Float>, gelu: Bool, residual: (UnsafePointer<Float>, Int)?) {
        // Column ranges are whole panels, so always a multiple of 8.
        for row in rows {
            let line = output + row * outputStride
            var column = columns.lowerBound
            if let (skip, skipStride) = residual {
                let skipLine = skip + row * skipStride
                while column < columns.upperBound {
                    let value = TransformerMath.load8(line + column) + TransformerMath.load8(bias + column) + TransformerMath.load8(skipLine + column)
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
                    TransformerMath.store8(TransformerMath.load8(line + column) + TransformerMath.load8(bias + column), line + column)
                    column += 8
                }
            }
        }
    }
}
