/// Lookups in the generated ``FoldTables``.
extension FoldTables {
    /// The canonical decomposition of a scalar, when it has one (Hangul syllables excluded).
    static let decomposition = index(decompositions)
    /// The full case folding of a decomposed scalar, decomposed, when it changes the scalar.
    static let caseFolding = index(caseFoldings)
    /// Primary composites by their pair, keyed by `first << 32 | second`.
    static let composition: [UInt64: UInt32] = {
        var table: [UInt64: UInt32] = [:]
        table.reserveCapacity(compositions.count / 3)
        for start in stride(from: 0, to: compositions.count, by: 3) {
            table[UInt64(compositions[start]) << 32 | UInt64(compositions[start + 1])] = compositions[start + 2]
        }
        return table
    }()

    static func isMark(_ scalar: UInt32) -> Bool {
        scalar >= 0x300 && run(containing: scalar, in: marks, stride: 2) != nil
    }

    static func isPunctuation(_ scalar: UInt32) -> Bool {
        run(containing: scalar, in: punctuation, stride: 2) != nil
    }

    static func isWhiteSpace(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x20, 0x09...0x0D: true
        case 0..<0x80: false
        default: whiteSpace.contains(scalar)
        }
    }

    static func combiningClass(_ scalar: UInt32) -> UInt32 {
        guard scalar >= 0x300, let start = run(containing: scalar, in: combiningClasses, stride: 3) else { return 0 }
        return combiningClasses[start + 2]
    }

    /// The start of the `first, last, …` run of `table` that contains `scalar`, by binary search.
    private static func run(containing scalar: UInt32, in table: [UInt32], stride: Int) -> Int? {
        var low = 0
        var high = table.count / stride
        while low < high {
            let middle = (low + high) / 2
            let start = middle * stride
            if scalar < table[start] {
                high = middle
            } else if scalar > table[start + 1] {
                low = middle + 1
            } else {
                return start
            }
        }
        return nil
    }

    private static func index(_ flat: [UInt32]) -> [UInt32: ArraySlice<UInt32>] {
        var table: [UInt32: ArraySlice<UInt32>] = [:]
        var position = 0
        while position < flat.count {
            let count = Int(flat[position + 1])
            table[flat[position]] = flat[(position + 2)..<(position + 2 + count)]
            position += 2 + count
        }
        return table
    }
}
