import Foundation
import Mnemo

/// Scratch memory for one forward pass, sized for a number of token rows and reused by every layer
/// (and by every batch of one ``SentenceEncoder/encode(_:)`` call), so no memory is allocated per
/// token or per layer.
final class BertWorkspace {
    let rowCapacity: Int
    let hiddenStride: Int
    let projectionStride: Int
    let intermediateStride: Int
    /// The residual stream: embeddings, then each layer's output.
    let hidden: FloatBuffer
    /// Query, key and value of every token, side by side.
    let projections: FloatBuffer
    /// The attention heads' outputs, concatenated.
    let context: FloatBuffer
    /// The residual stream after attention (input of the feed-forward block).
    let attended: FloatBuffer
    /// The feed-forward block's inner activations.
    let intermediate: FloatBuffer
    /// Per worker: scratch for the input splats of the narrow matrix kernel (a single float
    /// when the kernel reads none: 0.4 MB per worker to allocate and zero on every call).
    let splats: FloatBuffer
    /// Per worker: transposed keys of one head then rows of scores (see `HeadAttention`).
    let attentionScratch: FloatBuffer
    let attentionScratchStride: Int

    init(weights: BertWeights, rows: Int, workers: Int, splats needsSplats: Bool) {
        let config = weights.configuration
        let layer = weights.layers.first
        rowCapacity = (rows + MicroKernel.rows - 1) / MicroKernel.rows * MicroKernel.rows
        hiddenStride =
            (config.hiddenSize + PackedLinear.panelWidth - 1) / PackedLinear.panelWidth * PackedLinear.panelWidth
        projectionStride = layer?.attentionInput.paddedOutputSize ?? 3 * hiddenStride
        intermediateStride = layer?.intermediate.paddedOutputSize ?? hiddenStride
        hidden = FloatBuffer(count: rowCapacity * hiddenStride)
        projections = FloatBuffer(count: rowCapacity * projectionStride)
        context = FloatBuffer(count: rowCapacity * hiddenStride)
        attended = FloatBuffer(count: rowCapacity * hiddenStride)
        intermediate = FloatBuffer(count: rowCapacity * intermediateStride)
        // No sequence is longer than the model allows, nor than the rows of its pass.
        attentionScratchStride = HeadAttention.scratchCount(
            length: min(config.maxSequenceLength, rowCapacity), headSize: config.headDimension)
        attentionScratch = FloatBuffer(count: max(workers, 1) * attentionScratchStride)
        splats = FloatBuffer(count: needsSplats ? max(workers, 1) * LinearLayerKernel.splatFloatsPerWorker : 1)
    }
}

/// The BERT encoder and sentence pooling, over token sequences packed end to end.
///
/// Instead of padding every sequence of a batch to the longest and masking the padding out, the
/// tokens of all sequences are stacked into one matrix: the linear layers, layer norms and GELU
/// work per token, so they never see padding, and attention runs per sequence over exactly its own
/// tokens, which is what the attention mask achieves in the reference, without the wasted work.
/// A text therefore gets bit-identical vectors alone or in any batch.
struct BertForwardPass: Sendable {
    let weights: BertWeights
    let kernel: LinearLayerKernel
    let workers: Int

    /// Encodes sequences of token ids (each already framed by `[CLS]`/`[SEP]`, none longer than
    /// the configuration's maximum) into pooled, L2-normalised sentence vectors.
    func encode(_ sequences: [[Int32]], workspace: BertWorkspace) -> [[Float]] {
        let config = weights.configuration
        var offsets: [Int] = []
        offsets.reserveCapacity(sequences.count + 1)
        var total = 0
        for sequence in sequences {
            offsets.append(total)
            total += sequence.count
        }
        offsets.append(total)
        let rows = kernel.rowsComputed(for: total)
        precondition(rows <= workspace.rowCapacity, "workspace too small")
        guard total > 0 else { return sequences.map { _ in [Float](repeating: 0, count: config.hiddenSize) } }

        embed(sequences, offsets: offsets, rows: rows, workspace: workspace)
        let hs = workspace.hiddenStride
        for layer in weights.layers {
            kernel.apply(
                layer.attentionInput, input: workspace.hidden.pointer, inputStride: hs, rows: rows,
                output: workspace.projections.pointer, outputStride: workspace.projectionStride, epilogue: .none,
                splats: workspace.splats.pointer)
            attention(offsets: offsets, workspace: workspace)
            kernel.apply(
                layer.attentionOutput, input: workspace.context.pointer, inputStride: hs, rows: rows,
                output: workspace.attended.pointer, outputStride: hs,
                epilogue: .residual(workspace.hidden.pointer, stride: hs), splats: workspace.splats.pointer)
            normalizeRows(
                workspace.attended.pointer, stride: hs, rows: total,
                gamma: layer.attentionNormWeight.pointer, beta: layer.attentionNormBias.pointer)
            kernel.apply(
                layer.intermediate, input: workspace.attended.pointer, inputStride: hs, rows: rows,
                output: workspace.intermediate.pointer, outputStride: workspace.intermediateStride, epilogue: .gelu,
                splats: workspace.splats.pointer)
            kernel.apply(
                layer.output, input: workspace.intermediate.pointer, inputStride: workspace.intermediateStride,
                rows: rows, output: workspace.hidden.pointer, outputStride: hs,
                epilogue: .residual(workspace.attended.pointer, stride: hs), splats: workspace.splats.pointer)
            normalizeRows(
                workspace.hidden.pointer, stride: hs, rows: total,
                gamma: layer.outputNormWeight.pointer, beta: layer.outputNormBias.pointer)
        }
        return pool(offsets: offsets, workspace: workspace)
    }

    /// Word + token-type + position embeddings, then layer norm; padding rows are zeroed.
    private func embed(_ sequences: [[Int32]], offsets: [Int], rows: Int, workspace: BertWorkspace) {
        let config = weights.configuration
        let hidden = config.hiddenSize
        let stride = workspace.hiddenStride
        let out = workspace.hidden.pointer
        for (index, sequence) in sequences.enumerated() {
            for (position, id) in sequence.enumerated() {
                let row = out + (offsets[index] + position) * stride
                // Out-of-range ids cannot come from the tokenizer; map them to 0 rather than read wild memory.
                let token = (0..<config.vocabularySize).contains(Int(id)) ? Int(id) : 0
                let word = weights.wordEmbeddings.pointer + token * hidden
                let place = weights.positionEmbeddings.pointer + position * hidden
                let type = weights.tokenTypeEmbedding.pointer
                // The reference adds word and token-type embeddings first, then the position embedding.
                for i in 0..<hidden { row[i] = (word[i] + type[i]) + place[i] }
            }
        }
        let total = offsets.last ?? 0
        (out + total * stride).update(repeating: 0, count: (rows - total) * stride)
        normalizeRows(
            out, stride: stride, rows: total, gamma: weights.embeddingNormWeight.pointer,
            beta: weights.embeddingNormBias.pointer)
    }

    /// Layer norm of `rows` rows, split between the workers.
    private func normalizeRows(
        _ base: UnsafeMutablePointer<Float>, stride: Int, rows: Int,
        gamma: UnsafePointer<Float>, beta: UnsafePointer<Float>
    ) {
        let config = weights.configuration
        let shared = SharedPointer(base)
        let gammaShared = SharedPointer(UnsafeMutablePointer(mutating: gamma))
        let betaShared = SharedPointer(UnsafeMutablePointer(mutating: beta))
        let count = max(1, min(workers, rows / 16))
        let work: @Sendable (Int) -> Void = { worker in
            for row in (rows * worker / count)..<(rows * (worker + 1) / count) {
                TransformerMath.layerNorm(
                    shared.base + row * stride, count: config.hiddenSize, gamma: gammaShared.base,
                    beta: betaShared.base, epsilon: config.layerNormEpsilon)
            }
        }
        kernel.parallel(iterations: count, work)
    }

    /// Multi-head self-attention of every sequence over its own tokens, writing the heads' outputs to
    /// `workspace.context`. Work items are (sequence, head) pairs dealt round-robin to the workers, so
    /// each worker gets about half of every sequence's heads whatever the lengths.
    private func attention(offsets: [Int], workspace: BertWorkspace) {
        let config = weights.configuration
        let heads = config.attentionHeadCount
        let headSize = config.headDimension
        let hidden = config.hiddenSize
        let items = (offsets.count - 1) * heads
        let count = max(1, min(workers, items))
        let projections = SharedPointer(workspace.projections.pointer)
        let context = SharedPointer(workspace.context.pointer)
        let scratch = SharedPointer(workspace.attentionScratch.pointer)
        let projectionStride = workspace.projectionStride
        let contextStride = workspace.hiddenStride
        let scratchStride = workspace.attentionScratchStride
        let scale = 1 / Float(headSize).squareRoot()

        let instructionSet = kernel.instructionSet

        let work: @Sendable (Int) -> Void = { worker in
            var item = worker
            while item < items {
                let sequence = item / heads
                let head = item % heads
                let first = offsets[sequence]
                let length = offsets[sequence + 1] - first
                let queries = projections.base + first * projectionStride + head * headSize
                HeadAttention.attend(
                    queries: queries, keys: queries + hidden, values: queries + 2 * hidden,
                    stride: projectionStride, length: length, headSize: headSize, scale: scale,
                    context: context.base + first * contextStride + head * headSize,
                    contextStride: contextStride, scratch: scratch.base + worker * scratchStride,
                    using: instructionSet)
                item += count
            }
        }
        kernel.parallel(iterations: count, work)
    }

    /// Pools each sequence's final hidden states into one vector and scales it to unit length.
    private func pool(offsets: [Int], workspace: BertWorkspace) -> [[Float]] {
        let config = weights.configuration
        let hidden = config.hiddenSize
        let stride = workspace.hiddenStride
        let base = workspace.hidden.pointer
        var vectors: [[Float]] = []
        vectors.reserveCapacity(offsets.count - 1)
        for index in 0..<(offsets.count - 1) {
            let first = offsets[index]
            let length = offsets[index + 1] - first
            var vector = [Float](repeating: 0, count: hidden)
            if length > 0 {
                switch config.pooling {
                case .cls:
                    for i in 0..<hidden { vector[i] = base[first * stride + i] }
                case .max:
                    for i in 0..<hidden { vector[i] = -.infinity }
                    for row in first..<(first + length) {
                        for i in 0..<hidden { vector[i] = max(vector[i], base[row * stride + i]) }
                    }
                case .mean, .meanSquareRootLength:
                    for row in first..<(first + length) {
                        for i in 0..<hidden { vector[i] += base[row * stride + i] }
                    }
                    let divisor = config.pooling == .mean ? Float(length) : Float(length).squareRoot()
                    for i in 0..<hidden { vector[i] /= divisor }
                }
            }
            VectorMath.normalize(&vector)
            vectors.append(vector)
        }
        return vectors
    }
}
