import Foundation
import MnemoEvaluation
import MnemoTestSupport
import Testing

@testable import Mnemo
@testable import MnemoEncoder

/// Every kernel path this CPU runs (``KernelInstructionSet/available``) against the portable
/// Swift path, the reference: the encoder's matrix product, the scan's float and int8 dot
/// products, the scan itself, and (with the model) the encoder's vectors on the reference texts.
/// On a CPU without AVX2 only the portable path is listed, and the comparisons compare it with itself.
@Suite("Kernel paths")
struct KernelPathTests {
    static let paths = KernelInstructionSet.available

    @Test("the paths list portable first, and MNEMO_KERNELS can only pick an available one")
    func availablePaths() {
        #expect(Self.paths.first == .portable)
        #expect(Self.paths.contains(KernelInstructionSet.preferred))
        #expect(Self.paths == KernelInstructionSet.allCases.filter(Self.paths.contains), "in order, fastest last")
        #if !arch(x86_64)
            #expect(Self.paths == [.portable])
        #endif
    }

    @Test("asking for a path that does not exist, or that the CPU cannot run, is an error naming both")
    func unavailablePaths() throws {
        // A CPU with AVX2 but not AVX-512.
        let older: [KernelInstructionSet] = [.portable, .avx2]
        #expect(try KernelInstructionSet.named("AVX2", source: "--kernels AVX2", available: older) == .avx2)
        let missing = #expect(throws: KernelInstructionSet.Unavailable.self) {
            try KernelInstructionSet.named("avx512", source: "MNEMO_KERNELS=avx512", available: older)
        }
        #expect(
            missing?.description == "MNEMO_KERNELS=avx512 is not available on this CPU (this CPU runs: portable, avx2)")
        let unknown = #expect(throws: KernelInstructionSet.Unavailable.self) {
            try KernelInstructionSet.named("sse9", source: "--kernels sse9", available: older)
        }
        #expect(unknown?.description == "--kernels sse9 is not a kernel path (this CPU runs: portable, avx2)")
    }

    /// The shapes of the encoder's layers and odd ones: rows past the 64-row block and not a
    /// multiple of the AVX2 tile (6), so every smaller tile runs; on AVX-512, rows of one two-panel
    /// tile (up to 14), 15 rows (one one-panel tile), and two-panel tiles of 14 then of the rows
    /// left (16, 17, 19, 20, 28, 33, 44, and 68 = a 64-row block + 4), with odd panel counts ending
    /// in one-panel tiles; inputs of 1, odd, and past the 384-deep block (so later blocks
    /// accumulate); outputs not a multiple of 16.
    static let linearShapes =
        [
            (rows: 4, inputs: 8, outputs: 16), (rows: 12, inputs: 384, outputs: 40),
            (rows: 68, inputs: 400, outputs: 37),
            (rows: 136, inputs: 1536, outputs: 384), (rows: 8, inputs: 1, outputs: 1),
            (rows: 20, inputs: 17, outputs: 33),
            (rows: 44, inputs: 771, outputs: 95), (rows: 16, inputs: 384, outputs: 1152),
            // Rows the C kernels take as they come (a text's tokens, unpadded): odd, a single
            // row, and 13 to 20 rows in one tile, alone and after a 12-row tile.
            (rows: 1, inputs: 384, outputs: 40), (rows: 3, inputs: 50, outputs: 17),
            (rows: 17, inputs: 384, outputs: 1152), (rows: 19, inputs: 1536, outputs: 48),
            (rows: 13, inputs: 385, outputs: 16), (rows: 33, inputs: 97, outputs: 64),
            (rows: 71, inputs: 400, outputs: 37), (rows: 28, inputs: 384, outputs: 80),
            (rows: 15, inputs: 64, outputs: 48),
        ] + randomShapes

    /// Six shapes drawn at random (with a fixed seed): rows a multiple of 4 up to 160, any inputs
    /// up to 900 and outputs up to 200.
    static let randomShapes = {
        var generator = SplitMix64(seed: 40)
        return (0..<6).map { _ in
            (
                rows: 4 * (1 + Int(generator.below(40))), inputs: 1 + Int(generator.below(900)),
                outputs: 1 + Int(generator.below(200))
            )
        }
    }()

    /// Shapes that cross the kernel's blocks: rows past the 64-row block and not a multiple of 6,
    /// inputs past the 384-deep block (so later blocks accumulate), outputs not a multiple of 16.
    @Test("the linear layer matches a double-precision product on every path", arguments: linearShapes)
    func linearLayer(shape: (rows: Int, inputs: Int, outputs: Int)) {
        var generator = SplitMix64(seed: UInt64(shape.rows * 7919 + shape.inputs))
        func random() -> Float { Float(generator.below(20_001)) / 10_000 - 1 }
        let weight = (0..<(shape.outputs * shape.inputs)).map { _ in random() }
        let bias = (0..<shape.outputs).map { _ in random() }
        let input = (0..<(shape.rows * shape.inputs)).map { _ in random() }
        let layer = PackedLinear(weight: weight, bias: bias, outputSize: shape.outputs, inputSize: shape.inputs)
        let stride = layer.paddedOutputSize
        // The exact sums, and the sums of the terms' magnitudes that bound a float sum's rounding.
        var expected = [Double](repeating: 0, count: shape.rows * shape.outputs)
        var magnitude = expected
        for row in 0..<shape.rows {
            for column in 0..<shape.outputs {
                var sum = Double(bias[column])
                var size = abs(Double(bias[column]))
                for k in 0..<shape.inputs {
                    let product = Double(input[row * shape.inputs + k]) * Double(weight[column * shape.inputs + k])
                    sum += product
                    size += abs(product)
                }
                expected[row * shape.outputs + column] = sum
                magnitude[row * shape.outputs + column] = size
            }
        }
        var results: [KernelInstructionSet: [Float]] = [:]
        // The portable micro-kernels take rows in fours; the encoder pads them there.
        for path in Self.paths where shape.rows % MicroKernel.rows == 0 || path != .portable {
            for microKernel in path == .portable ? MicroKernel.allCases : [.wide] {
                let inputBuffer = FloatBuffer(input)
                let output = FloatBuffer(count: shape.rows * stride)
                let splats = FloatBuffer(count: 2 * LinearLayerKernel.splatFloatsPerWorker)
                LinearLayerKernel(microKernel: microKernel, workers: 2, instructionSet: path)
                    .apply(
                        layer, input: inputBuffer.pointer, inputStride: shape.inputs, rows: shape.rows,
                        output: output.pointer, outputStride: stride, epilogue: .none, splats: splats.pointer)
                var worst = 0.0
                for row in 0..<shape.rows {
                    for column in 0..<shape.outputs {
                        let error = abs(
                            Double(output.pointer[row * stride + column]) - expected[row * shape.outputs + column])
                        worst = max(worst, error / magnitude[row * shape.outputs + column])
                    }
                }
                // Rounding moves a sum by about 1e-7 of its terms' magnitudes (an error about 0.4e-7
                // of it is typical here); one product left out or counted twice would be ~1e-3.
                #expect(worst < 2e-6, "\(path) \(microKernel): error \(worst) of the terms' magnitude")
                results[path] = Array(UnsafeBufferPointer(start: output.pointer, count: shape.rows * stride))
            }
        }
        // AVX2 and AVX-512 run the same chains of fused multiply-adds: the same floats.
        if let avx2 = results[.avx2], let avx512 = results[.avx512] {
            #expect(avx2 == avx512, "AVX2 and AVX-512 differ")
        }
        // Every row's result is independent of the others: the same row alone gives the same floats.
        for path in Self.paths where shape.rows > 4 && results[path] != nil {
            let inputBuffer = FloatBuffer(Array(input[(shape.rows - 4) * shape.inputs..<shape.rows * shape.inputs]))
            let output = FloatBuffer(count: 4 * stride)
            let splats = FloatBuffer(count: LinearLayerKernel.splatFloatsPerWorker)
            LinearLayerKernel(microKernel: .wide, workers: 1, instructionSet: path)
                .apply(
                    layer, input: inputBuffer.pointer, inputStride: shape.inputs, rows: 4,
                    output: output.pointer, outputStride: stride, epilogue: .none, splats: splats.pointer)
            let alone = Array(UnsafeBufferPointer(start: output.pointer, count: 4 * stride))
            #expect(alone == Array(results[path]![(shape.rows - 4) * stride..<shape.rows * stride]), "\(path)")
        }
    }

    /// The bias, GELU and residual that follow a product, on every path against the portable one,
    /// on rows past the 64-row block and outputs that are not a multiple of 16.
    @Test("the C kernels compute a text's rows as they come; the portable path pads them to fours")
    func rowsComputed() {
        for path in Self.paths {
            let kernel = LinearLayerKernel(microKernel: .wide, workers: 1, instructionSet: path)
            #expect(kernel.rowsComputed(for: 17) == (path == .portable ? 20 : 17), "\(path)")
            #expect(kernel.rowsComputed(for: 16) == 16, "\(path)")
        }
    }

    @Test("the linear layer's GELU and residual epilogues agree with the portable path")
    func linearEpilogues() {
        let (rows, inputs, outputs) = (72, 40, 50)
        var generator = SplitMix64(seed: 4040)
        func random() -> Float { Float(generator.below(20_001)) / 5_000 - 2 }
        let layer = PackedLinear(
            weight: (0..<(outputs * inputs)).map { _ in random() }, bias: (0..<outputs).map { _ in random() },
            outputSize: outputs, inputSize: inputs)
        let stride = layer.paddedOutputSize
        let input = FloatBuffer((0..<(rows * inputs)).map { _ in random() })
        let skip = FloatBuffer((0..<(rows * (stride + 3))).map { _ in random() })
        let splats = FloatBuffer(count: 2 * LinearLayerKernel.splatFloatsPerWorker)
        for epilogue in [LinearEpilogue.gelu, .residual(UnsafePointer(skip.pointer), stride: stride + 3)] {
            var portable: [Float] = []
            for path in Self.paths {
                let output = FloatBuffer(count: rows * stride)
                LinearLayerKernel(microKernel: .wide, workers: 2, instructionSet: path)
                    .apply(
                        layer, input: input.pointer, inputStride: inputs, rows: rows, output: output.pointer,
                        outputStride: stride, epilogue: epilogue, splats: splats.pointer)
                let result = (0..<rows).flatMap { row in (0..<outputs).map { output.pointer[row * stride + $0] } }
                if path == .portable { portable = result }
                let worst = zip(result, portable).map { abs($0 - $1) / max(1, abs($1)) }.max() ?? 0
                // Sums of 40 products of size ≤ 4 round to ~1e-5 apart; a missing bias or residual
                // would be off by ~1, a GELU left out by up to 2.
                #expect(worst < 1e-4, "\(path) \(epilogue): off by \(worst)")
            }
        }
    }

    @Test("float dot products agree with the portable path", arguments: [0, 1, 7, 8, 31, 32, 33, 100, 384, 1000])
    func floatDot(count: Int) {
        var generator = SplitMix64(seed: UInt64(count + 1))
        let a = (0..<count).map { _ in Float(generator.below(20_001)) / 10_000 - 1 }
        let b = (0..<count).map { _ in Float(generator.below(20_001)) / 10_000 - 1 }
        let exact = zip(a, b).reduce(0.0) { $0 + Double($1.0) * Double($1.1) }
        let magnitude = zip(a, b).reduce(0.0) { $0 + abs(Double($1.0) * Double($1.1)) }
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                let portable = VectorMath.portableDot(a.baseAddress!, b.baseAddress!, count: count)
                for path in Self.paths {
                    let dot = VectorMath.dot(a.baseAddress!, b.baseAddress!, count: count, using: path)
                    #expect(abs(Double(dot) - exact) <= 1e-6 * (magnitude + 1), "\(path): \(dot), exact \(exact)")
                    #expect(abs(dot - portable) <= 2e-6 * Float(magnitude + 1), "\(path): \(dot), portable \(portable)")
                }
            }
        }
    }

    @Test(
        "int8 dot products are the same integers on every path",
        arguments: [1, 15, 16, 31, 32, 33, 63, 64, 65, 100, 127, 129, 384, 385])
    func int8Dot(count: Int) {
        var generator = SplitMix64(seed: UInt64(count))
        var query = (0..<count).map { _ in Float(generator.below(2001)) / 1000 - 1 }
        if count > 1 {
            query[0] = -1
            query[1] = 1
        }
        var rows = (0..<8).map { _ in (0..<count).map { _ in Int8(generator.below(255) - 127) } }
        rows.append([Int8](repeating: -127, count: count))
        rows.append([Int8](repeating: 127, count: count))
        rows.append([Int8](repeating: 0, count: count))
        let prepared = QuantizedQuery(query)
        let reference = prepared.withKernel(using: .portable) { kernel in
            rows.map { row in row.withUnsafeBufferPointer { kernel.portableDot($0.baseAddress!) } }
        }
        let queryCodes = codes(of: query)
        #expect(
            reference == rows.map { row in zip(row, queryCodes).reduce(Int32(0)) { $0 + Int32($1.0) * Int32($1.1) } })
        // The block kernels over the rows as one matrix, consecutive and listed (reversed),
        // with unit scales: the scores are the integers themselves (exact in Float below 2^24).
        let matrix = rows.flatMap { $0 }
        let scales = [Float](repeating: 1, count: rows.count)
        let listed = (0..<Int32(rows.count)).reversed().map { $0 }
        for path in Self.paths {
            let dots = prepared.withKernel(using: path) { kernel in
                rows.map { row in row.withUnsafeBufferPointer { kernel.dot($0.baseAddress!) } }
            }
            #expect(dots == reference, "\(path)")
            for order in [nil, listed] {
                var scores = [Float](repeating: .nan, count: rows.count)
                prepared.withKernel(using: path) { kernel in
                    matrix.withUnsafeBufferPointer { matrix in
                        scales.withUnsafeBufferPointer { scales in
                            (order ?? []).withUnsafeBufferPointer { listedRows in
                                let block = ScanBlock(
                                    rows: order == nil ? nil : listedRows.baseAddress, first: 0, count: rows.count)
                                kernel.scores(
                                    block, codes: matrix.baseAddress!, scales: scales.baseAddress!, into: &scores)
                            }
                        }
                    }
                }
                let expected = (order.map { $0.map(Int.init) } ?? Array(rows.indices)).map { Float(reference[$0]) }
                #expect(scores == expected, "\(path) \(order == nil ? "consecutive" : "listed") rows")
            }
            // The graph walk's kernel (AVX-512 VNNI on avx512 where the CPU has it), on every
            // count of listed rows around its groups of four.
            for count in [1, 3, 4, 5, rows.count] {
                var scores = [Float](repeating: .nan, count: count)
                prepared.withKernel(using: path) { kernel in
                    matrix.withUnsafeBufferPointer { matrix in
                        scales.withUnsafeBufferPointer { scales in
                            listed.withUnsafeBufferPointer { listedRows in
                                kernel.scoresOfListed(
                                    listedRows.baseAddress!, count: count, codes: matrix.baseAddress!,
                                    scales: scales.baseAddress!, into: &scores)
                            }
                        }
                    }
                }
                #expect(
                    scores == listed.prefix(count).map { Float(reference[Int($0)]) },
                    "\(path) walk kernel, \(count) listed rows")
            }
        }
    }

    @Test(
        "the graph's dot products of two nodes' codes are the same integers on every path",
        arguments: [1, 15, 16, 63, 64, 65, 127, 128, 384, 385])
    func int8PairDot(count: Int) {
        var generator = SplitMix64(seed: UInt64(count) + 7)
        var pairs = (0..<8).map { _ in
            (
                (0..<count).map { _ in Int8(generator.below(255) - 127) },
                (0..<count).map { _ in Int8(generator.below(255) - 127) }
            )
        }
        // The extremes: every product at ±127², where 16-bit sums of pairs would overflow.
        pairs.append(([Int8](repeating: 127, count: count), [Int8](repeating: 127, count: count)))
        pairs.append(([Int8](repeating: -127, count: count), [Int8](repeating: 127, count: count)))
        for (x, y) in pairs {
            let exact = zip(x, y).reduce(Int32(0)) { $0 + Int32($1.0) * Int32($1.1) }
            for path in Self.paths {
                let dot = x.withUnsafeBufferPointer { x in
                    y.withUnsafeBufferPointer { y in
                        NeighborGraph.pairDot(x.baseAddress!, y.baseAddress!, count: count, using: path)
                    }
                }
                #expect(dot == exact, "\(path): \(dot), exact \(exact)")
            }
        }
    }

    /// Lengths around the 8- and 16-key vectors, the 32-key block and the 4-query group, head sizes
    /// around the 16- and 32-column blocks;
    /// scores large enough that the softmax is far from uniform, and one token that takes nearly
    /// all the weight (its score is ~40 above the rest).
    @Test(
        "one head's attention matches a double-precision softmax on every path",
        arguments: [
            (length: 1, headSize: 32), (length: 7, headSize: 32), (length: 9, headSize: 32), (length: 33, headSize: 32),
            (length: 128, headSize: 32), (length: 12, headSize: 8), (length: 20, headSize: 44),
            (length: 40, headSize: 64), (length: 17, headSize: 5), (length: 18, headSize: 32),
        ])
    func headAttention(shape: (length: Int, headSize: Int)) {
        let (length, headSize) = shape
        var generator = SplitMix64(seed: UInt64(length * 131 + headSize))
        func random() -> Float { Float(generator.below(20_001)) / 10_000 - 1 }
        // Query, key and value of each token side by side in one row, as the encoder lays them out.
        let stride = 3 * headSize + 5
        var rows = (0..<(length * stride)).map { _ in 2 * random() }
        if length > 2 {
            // Token 2's key ≈ 10 × token 0's query.
            for c in 0..<headSize { rows[2 * stride + headSize + c] = 10 * rows[c] }
        }
        let scale = 1 / Float(headSize).squareRoot()
        var expected = [Double](repeating: 0, count: length * headSize)
        for i in 0..<length {
            let scores = (0..<length).map { j in
                Double(scale)
                    * (0..<headSize).reduce(0.0) {
                        $0 + Double(rows[i * stride + $1]) * Double(rows[j * stride + headSize + $1])
                    }
            }
            let weights = scores.map { Foundation.exp($0 - scores.max()!) }
            let total = weights.reduce(0, +)
            for c in 0..<headSize {
                expected[i * headSize + c] = (0..<length).reduce(0.0) {
                    $0 + weights[$1] / total * Double(rows[$1 * stride + 2 * headSize + c])
                }
            }
        }
        for path in Self.paths {
            var context = [Float](repeating: .nan, count: length * headSize)
            var scratch = [Float](
                repeating: .nan, count: HeadAttention.scratchCount(length: length, headSize: headSize))
            rows.withUnsafeBufferPointer { rows in
                HeadAttention.attend(
                    queries: rows.baseAddress!, keys: rows.baseAddress! + headSize,
                    values: rows.baseAddress! + 2 * headSize,
                    stride: stride, length: length, headSize: headSize, scale: scale, context: &context,
                    contextStride: headSize, scratch: &scratch, using: path)
            }
            let worst = zip(context, expected).map { abs(Double($0) - $1) }.max() ?? 0
            // Float sums of up to 128 terms of size ~2 (the portable path is off by 3.4e-6 at 128 tokens).
            #expect(worst <= 1e-5, "\(path): off by \(worst)")
        }
    }

    @Test("the scan finds the same rows on every path, exact and quantized")
    func scan() {
        let corpus = SyntheticCorpus(.init(facts: 12_000, queries: 10, dimension: 384, seed: 17))
        var store = VectorSnapshot(dimension: 384)
        for (index, fact) in corpus.facts.enumerated() {
            store.upsert(
                id: Int64(index + 1), vector: Array(corpus.vector(ofFact: index)),
                attributes: .init(
                    namespace: "default", topicID: 1, type: fact.type, importance: fact.importance,
                    isActive: fact.isActive))
        }
        let filter = VectorFilter(FactFilter(), namespaceCode: store.namespaceCode("default")!, topicIDs: nil)
        for query in corpus.queries {
            for precision in [VectorSnapshot.Precision.exact, .quantized(rescoreFactor: 10)] {
                let reference = store.nearest(
                    to: query.vector, k: 10, filter: filter, precision: precision, instructionSet: .portable)
                for path in Self.paths {
                    let matches = store.nearest(
                        to: query.vector, k: 10, filter: filter, precision: precision, instructionSet: path)
                    #expect(matches.count == reference.count)
                    for (match, expected) in zip(matches, reference) {
                        // The float scores differ in the last bits, so ties may swap: compare by score.
                        #expect(abs(match.similarity - expected.similarity) < 1e-5, "\(path) \(precision)")
                    }
                    #expect(Set(matches.map(\.id)).intersection(reference.map(\.id)).count >= 9, "\(path) \(precision)")
                }
            }
        }
    }

    /// The query codes `QuantizedQuery` makes (-31...31).
    private func codes(of vector: [Float]) -> [Int8] {
        var codes = [Int8](repeating: 0, count: vector.count)
        _ = vector.withUnsafeBufferPointer { source in
            codes.withUnsafeMutableBufferPointer {
                VectorMath.quantize(source, into: $0, levels: QuantizedQuery.levels)
            }
        }
        return codes
    }
}

/// The sentence encoder on every kernel path, each test skipped (with the reason) where the CPU
/// lacks its instructions: the 46 reference texts of sentence-transformers give
/// the reference token ids and vectors within cosine 0.9999, one by one and in one batch.
@Suite("Encoder kernel paths", .enabled(if: ModelFixture.shouldRunModelTests, ModelFixture.skipReason))
struct EncoderKernelPathTests {
    @Test("reference token ids and vectors on the portable path")
    func portableReferenceVectors() throws { try referenceVectors(path: .portable) }

    @Test(
        "reference token ids and vectors on the AVX2 path",
        .enabled(if: KernelInstructionSet.available.contains(.avx2), "this CPU has no AVX2 and FMA"))
    func avx2ReferenceVectors() throws { try referenceVectors(path: .avx2) }

    @Test(
        "reference token ids and vectors on the AVX-512 path",
        .enabled(if: KernelInstructionSet.available.contains(.avx512), "this CPU has no AVX-512 (F, BW, DQ, VL)"))
    func avx512ReferenceVectors() throws { try referenceVectors(path: .avx512) }

    private func referenceVectors(path: KernelInstructionSet) throws {
        let encoder = try SentenceEncoder(modelDirectory: ModelFixture.requireModel(), instructionSet: path)
        #expect(encoder.instructionSet == path)
        let reference = try ReferenceFile.load()
        #expect(reference.items.count == 46)
        let batched = encoder.encode(reference.items.map(\.text))
        let portable =
            path == .portable
            ? batched
            : try SentenceEncoder(modelDirectory: ModelFixture.requireModel(), instructionSet: .portable).encode(
                reference.items.map(\.text))
        for (index, item) in reference.items.enumerated() {
            let ids = encoder.tokenizer.encode(item.text, maxLength: reference.maxSeqLength)
            #expect(ids == item.tokenIDs, "item \(index)")
            let single = encoder.encode(item.text)
            let similarity = cosine(single, item.embedding)
            #expect(similarity >= 0.9999, "\(path) item \(index): cosine \(similarity)")
            // Packed batches: a text's vector does not depend on its neighbours.
            #expect(single == batched[index], "\(path) item \(index): batch differs from alone")
            #expect(cosine(single, portable[index]) >= 0.99999, "\(path) item \(index): far from the portable path")
        }
    }
}
