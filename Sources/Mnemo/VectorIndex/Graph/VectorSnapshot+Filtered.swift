extension VectorSnapshot {
    /// How many rows of the filter's namespace pass it, estimated from an even sample of at most
    /// `sample` rows (all of them when the namespace is smaller).
    func estimatedPassingRows(_ filter: VectorFilter, sample: Int = 1_024) -> Int {
        let members = rows(ofNamespace: filter.namespaceCode)
        let total = members?.count ?? count
        guard total > 0 else { return 0 }
        let step = max(1, total / sample)
        var tested = 0
        var passed = 0
        var position = 0
        while position < total {
            let row = members.map { Int($0[position]) } ?? position
            if passes(row, filter) { passed += 1 }
            tested += 1
            position += step
        }
        return Int((Double(passed) / Double(tested) * Double(total)).rounded(.up))
    }

    /// The rows of the filter's namespace that pass it.
    func passingRows(_ filter: VectorFilter) -> [Int32] {
        if let members = rows(ofNamespace: filter.namespaceCode) {
            return members.filter { passes(Int($0), filter) }
        }
        return (0..<Int32(count)).filter { passes(Int($0), filter) }
    }

    /// Whether `row` is in the filter's namespace and passes it.
    @inline(__always)
    func passes(_ row: Int, _ filter: VectorFilter) -> Bool {
        namespaceCodes[row] == filter.namespaceCode
            && filter.accepts(flag: flags[row], topicID: topicIDs[row], createdTime: createdTimes[row])
    }

    /// The `k` best of the listed rows by cosine similarity: int8 dot products over every row,
    /// then float re-scoring of the best `rescoreFactor × k` (at least k + 32).
    func nearest(
        to query: [Float], k: Int, among rows: [Int32], floor: Float, rescoreFactor: Int = 10,
        instructionSet: KernelInstructionSet = .preferred
    ) -> [Match] {
        guard k > 0, !rows.isEmpty else { return [] }
        var heap = TopK(capacity: max(k * rescoreFactor, k + 32))
        QuantizedQuery(query).withKernel(using: instructionSet) { kernel in
            codes.withUnsafeBufferPointer { codes in
                scales.withUnsafeBufferPointer { scales in
                    rows.withUnsafeBufferPointer { rows in
                        ScanBlock.forEach(in: 0..<rows.count, of: rows) { block, scores in
                            kernel.scores(block, codes: codes.baseAddress!, scales: scales.baseAddress!, into: scores)
                            var bar = heap.threshold
                            for index in 0..<block.count where scores[index] > bar {
                                heap.insert(score: scores[index], row: block.row(index))
                                bar = heap.threshold
                            }
                        }
                    }
                }
            }
        }
        return rescore(heap.sorted(), query: query, k: k, floor: floor, instructionSet: instructionSet)
    }
}
