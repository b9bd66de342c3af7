internal import MnemoKernels

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

    /// The rows of the filter's namespace that pass it, in the namespace's order: the rows
    /// ``passes(_:_:)`` accepts, tested by the listing kernel (`mnemo_list_passing`), which reads
    /// only the columns the filter uses and, on ``KernelInstructionSet/avx512`` when the namespace
    /// holds every row, tests 16 rows a step. `expected` (an estimate of their number) sizes the
    /// list: the kernel stops when it is full and goes on in a list twice as large, so a search
    /// neither allocates a row's room for every row of the namespace nor grows the list one
    /// row at a time.
    func passingRows(
        _ filter: VectorFilter, expected: Int = 0, instructionSet: KernelInstructionSet = .preferred
    ) -> [Int32] {
        let members = rows(ofNamespace: filter.namespaceCode)
        let total = members?.count ?? count
        guard total > 0 else { return [] }
        var description = mnemo_row_filter()
        description.namespace_code = filter.namespaceCode
        description.type_mask = filter.typeMask
        description.importance_mask = filter.importanceMask
        switch filter.activity {
        case .activeOnly: (description.activity_mask, description.activity_value) = (0x80, 0x80)
        case .inactiveOnly: (description.activity_mask, description.activity_value) = (0x80, 0)
        case .all: (description.activity_mask, description.activity_value) = (0, 0)
        }
        if let range = filter.timeRange {
            description.has_time_range = 1
            (description.time_lower, description.time_upper) = (range.lower, range.upper)
        }
        let vectorized = listsVectorized(filter, instructionSet: instructionSet)
        // In ascending order for the kernel's binary search; sorted here, only for a listing.
        let sortedTopicIDs = filter.topicIDs?.sorted()
        return namespaceCodes.withUnsafeBufferPointer { namespaceCodes in
            flags.withUnsafeBufferPointer { flags in
                topicIDs.withUnsafeBufferPointer { topicIDs in
                    createdTimes.withUnsafeBufferPointer { createdTimes in
                        (sortedTopicIDs ?? []).withUnsafeBufferPointer { topics in
                            if sortedTopicIDs != nil {
                                description.topics = topics.baseAddress
                                description.topic_count = topics.count
                                // An empty subtree passes nothing; the kernel needs an address.
                                if topics.isEmpty { return [] }
                            }
                            // Listed rows are the namespace's own: the namespace is tested anyway,
                            // so that the listing is `passes` row for row.
                            var columns = mnemo_row_columns(
                                namespace_codes: members == nil ? nil : namespaceCodes.baseAddress,
                                flags: flags.baseAddress, topic_ids: topicIDs.baseAddress,
                                created_times: createdTimes.baseAddress)
                            return Self.list(
                                &columns, &description, members: members, total: total,
                                room: min(total, max(1_024, expected + expected / 2)), vectorized: vectorized)
                        }
                    }
                }
            }
        }
    }

    /// Whether ``passingRows(_:expected:instructionSet:)`` tests 16 rows a step: on AVX-512, when
    /// the filter's namespace holds every row (else it tests the namespace's listed rows one by one).
    func listsVectorized(_ filter: VectorFilter, instructionSet: KernelInstructionSet = .preferred) -> Bool {
        instructionSet == .avx512 && rows(ofNamespace: filter.namespaceCode) == nil
    }

    /// Runs the listing kernel over `total` positions (of `members`, or row numbers), starting
    /// with `room` rows and doubling it whenever the list fills.
    private static func list(
        _ columns: inout mnemo_row_columns, _ filter: inout mnemo_row_filter, members: [Int32]?, total: Int,
        room: Int, vectorized: Bool
    ) -> [Int32] {
        var position = 0
        var listed: [Int32] = []
        var room = room
        while position < total {
            let start = position
            let part = [Int32](unsafeUninitializedCapacity: room) { buffer, written in
                var stopped = 0
                written =
                    if let members {
                        members.withUnsafeBufferPointer { members in
                            mnemo_list_passing(
                                &columns, &filter, members.baseAddress, start, total, buffer.baseAddress, room,
                                &stopped, 0)
                        }
                    } else {
                        mnemo_list_passing(
                            &columns, &filter, nil, start, total, buffer.baseAddress, room, &stopped,
                            vectorized ? 1 : 0)
                    }
                position = stopped
            }
            if listed.isEmpty { listed = part } else { listed += part }
            room = min(total, 2 * room)
        }
        return listed
    }

    /// Whether `row` is in the filter's namespace and passes it.
    @inline(__always)
    func passes(_ row: Int, _ filter: VectorFilter) -> Bool {
        namespaceCodes[row] == filter.namespaceCode
            && filter.accepts(flag: flags[row], topicID: topicIDs[row], createdTime: createdTimes[row])
    }

    /// The `k` best of the listed rows by cosine similarity: int8 dot products over every row,
    /// then float re-scoring of the best `rescoreFactor × k` (at least k + 32). The rows are
    /// scored on `threads` threads when they are many, as the exact scan's are; `work`, when
    /// given, runs beside the scoring (a hybrid search's text ranking).
    func nearest(
        to query: [Float], k: Int, among rows: [Int32], floor: Float, rescoreFactor: Int = 10,
        threads: Int = VectorSnapshot.defaultThreads, instructionSet: KernelInstructionSet = .preferred,
        alongside work: (@Sendable () -> Void)? = nil
    ) -> [Match] {
        guard k > 0, !rows.isEmpty else {
            work?()
            return []
        }
        let candidates = QuantizedQuery(query).withKernel(using: instructionSet) { kernel in
            codes.withUnsafeBufferPointer { codes in
                scales.withUnsafeBufferPointer { scales in
                    rows.withUnsafeBufferPointer { rows in
                        parallelTopK(
                            k: max(k * rescoreFactor, k + 32), count: rows.count, threads: threads, alongside: work
                        ) { range, heap in
                            ScanBlock.forEach(in: range, of: rows) { block, scores in
                                kernel.scores(
                                    block, codes: codes.baseAddress!, scales: scales.baseAddress!, into: scores)
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
        }
        return rescore(candidates, query: query, k: k, floor: floor, instructionSet: instructionSet)
    }
}
