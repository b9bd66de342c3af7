import Mnemo

/// A fully connected layer `y = x·Wᵀ + b` whose weight is repacked once, at load time, for the
/// matrix-multiplication micro-kernels.
///
/// PyTorch stores a `Linear` weight as `[out, in]`, row-major. The kernels compute 16 outputs at a
/// time and walk the input dimension sequentially, so the weight is cut into panels of 16 output
/// rows and each panel is stored input-major: `panel[p][k][j] = W[16p + j][k]`. One 16-float load
/// then feeds 16 outputs, and a panel is read front to back from contiguous memory. The last panel
/// is zero-padded, so output widths that are not multiples of 16 still work.
struct PackedLinear: Sendable {
    /// The number of outputs computed by one kernel call, and the width of a panel.
    static let panelWidth = 16

    /// The number of inputs (the `in` dimension).
    let inputSize: Int
    /// The number of outputs (the `out` dimension).
    let outputSize: Int
    /// The number of 16-wide panels.
    let panelCount: Int
    /// `panelCount × inputSize × 16` packed weights.
    let panels: FloatBuffer
    /// The bias, zero-padded to `panelCount × 16`.
    let bias: FloatBuffer

    /// The output width rounded up to whole panels: the row stride the output buffer must allow.
    var paddedOutputSize: Int { panelCount * Self.panelWidth }

    /// Packs a PyTorch `[outputSize, inputSize]` weight and its bias.
    init(weight: [Float], bias: [Float], outputSize: Int, inputSize: Int) {
        precondition(
            weight.count == outputSize * inputSize,
            "weight has \(weight.count) values, expected \(outputSize)×\(inputSize)")
        precondition(bias.count == outputSize, "bias has \(bias.count) values, expected \(outputSize)")
        let width = Self.panelWidth
        self.inputSize = inputSize
        self.outputSize = outputSize
        panelCount = (outputSize + width - 1) / width
        panels = FloatBuffer(count: panelCount * inputSize * width)
        self.bias = FloatBuffer(count: panelCount * width)
        let packed = panels.pointer
        weight.withUnsafeBufferPointer { source in
            for n in 0..<outputSize {
                let panelBase = (n / width) * inputSize * width + n % width
                let row = n * inputSize
                for k in 0..<inputSize {
                    packed[panelBase + k * width] = source[row + k]
                }
            }
        }
        for n in 0..<outputSize { self.bias.pointer[n] = bias[n] }
    }

    /// Packs several layers that read the same input into one, their outputs side by side (used for
    /// the query, key and value projections, which then cost one pass over the input instead of three).
    init(stacking layers: [(weight: [Float], bias: [Float], outputSize: Int)], inputSize: Int) {
        self.init(
            weight: layers.flatMap(\.weight), bias: layers.flatMap(\.bias),
            outputSize: layers.reduce(0) { $0 + $1.outputSize }, inputSize: inputSize)
    }
}
