import Dispatch
import Foundation

extension DuplicateFinder {
    /// From how many facts on the neighbours are found by clustering rather than by scanning
    /// every fact for each one.
    static let blockingThreshold = 5_000

    /// Each fact's neighbours at or above the rule's lowest similarity, found without comparing
    /// all pairs: the vectors are clustered around about 2·√n centroids (k-means on a sample,
    /// a few rounds), each fact joins the blocks of its two nearest centroids, and only facts
    /// sharing a block are compared. Near duplicates sit at cosine 0.7 and above, so both facts
    /// of a pair almost always share a nearest centroid; the second block catches most of those
    /// that straddle a boundary. About n·(4n/k) comparisons instead of n²: at 100k facts, a few
    /// hundred times fewer. Deterministic: the result does not depend on how the work is split.
    func blockedNeighbourLists(of facts: [Fact], in store: VectorSnapshot) -> [[VectorSnapshot.Match]] {
        let dimension = store.dimension
        var gatheredRows: [Int] = [] // indices into `facts` of those with a vector
        var gathered: [Float] = []
        gathered.reserveCapacity(facts.count * dimension)
        for (index, fact) in facts.enumerated() {
            guard let vector = store.vector(of: fact.id) else { continue }
            gatheredRows.append(index)
            gathered.append(contentsOf: vector)
        }
        let (rows, matrix) = (gatheredRows, gathered)
        let count = rows.count
        var lists = [[VectorSnapshot.Match]](repeating: [], count: facts.count)
        guard count > 1 else { return lists }
        let centroids = Self.centroids(
            of: matrix, count: count, dimension: dimension,
            k: max(1, Int((2 * Double(count).squareRoot()).rounded())))
        let k = centroids.count / dimension

        // The two nearest centroids of every row.
        let nearest = Self.parallel(count) { range in
            var local: [(Int32, Int32)] = []
            for row in range {
                var best = (index: Int32(0), score: -Float.infinity)
                var second = (index: Int32(0), score: -Float.infinity)
                matrix.withUnsafeBufferPointer { m in
                    centroids.withUnsafeBufferPointer { c in
                        for centroid in 0..<k {
                            let score = VectorMath.dot(
                                m.baseAddress! + row * dimension, c.baseAddress! + centroid * dimension,
                                count: dimension)
                            if score > best.score {
                                second = best
                                best = (Int32(centroid), score)
                            } else if score > second.score {
                                second = (Int32(centroid), score)
                            }
                        }
                    }
                }
                local.append((best.index, second.index))
            }
            return local
        }

        var members = [[Int32]](repeating: [], count: k)
        for (row, pair) in nearest.enumerated() {
            members[Int(pair.0)].append(Int32(row))
            if pair.1 != pair.0 { members[Int(pair.1)].append(Int32(row)) }
        }
        let blocks = members

        // Compare within each block; a pair met in two blocks is kept once.
        let threshold = Float(rule.minimumSimilarity)
        let pairs = Self.parallel(k) { range -> [(Int32, Int32, Float)] in
            var found: [(Int32, Int32, Float)] = []
            matrix.withUnsafeBufferPointer { m in
                for block in range {
                    let members = blocks[block]
                    for (offset, a) in members.enumerated() {
                        let typeA = facts[rows[Int(a)]].type
                        for b in members[(offset + 1)...] where facts[rows[Int(b)]].type == typeA {
                            let score = VectorMath.dot(
                                m.baseAddress! + Int(a) * dimension, m.baseAddress! + Int(b) * dimension,
                                count: dimension)
                            guard score >= threshold else { continue }
                            // Both share these two blocks: count the pair in the first only.
                            let shared = Set([nearest[Int(a)].0, nearest[Int(a)].1]).intersection([
                                nearest[Int(b)].0, nearest[Int(b)].1,
                            ])
                            if Int(shared.min()!) == block { found.append((min(a, b), max(a, b), score)) }
                        }
                    }
                }
            }
            return found
        }
        for (a, b, score) in pairs {
            let (factA, factB) = (rows[Int(a)], rows[Int(b)])
            lists[factA].append(VectorSnapshot.Match(id: facts[factB].id, similarity: score))
            lists[factB].append(VectorSnapshot.Match(id: facts[factA].id, similarity: score))
        }
        return lists.map { matches in
            Array(matches.sorted { ($0.similarity, -$0.id) > ($1.similarity, -$1.id) }.prefix(neighbours))
        }
    }

    /// k-means centroids (normalised, so a dot product ranks by cosine) of a sample of the rows.
    private static func centroids(of matrix: [Float], count: Int, dimension: Int, k: Int) -> [Float] {
        let sampleSize = min(count, max(20 * k, 10_000))
        let sample = (0..<sampleSize).map { $0 * count / sampleSize }
        var centroids = [Float]()
        centroids.reserveCapacity(k * dimension)
        for index in 0..<k {
            let row = sample[index * sampleSize / k]
            centroids.append(contentsOf: matrix[(row * dimension)..<((row + 1) * dimension)])
        }
        for _ in 0..<4 {
            let current = centroids
            let assignments = parallel(sampleSize) { range -> [Int] in
                matrix.withUnsafeBufferPointer { m in
                    current.withUnsafeBufferPointer { c in
                        range.map { position in
                            let row = sample[position]
                            var best = (index: 0, score: -Float.infinity)
                            for centroid in 0..<k {
                                let score = VectorMath.dot(
                                    m.baseAddress! + row * dimension, c.baseAddress! + centroid * dimension,
                                    count: dimension)
                                if score > best.score { best = (centroid, score) }
                            }
                            return best.index
                        }
                    }
                }
            }
            var sums = [Float](repeating: 0, count: k * dimension)
            var sizes = [Int](repeating: 0, count: k)
            for (position, centroid) in assignments.enumerated() {
                let row = sample[position]
                sizes[centroid] += 1
                for d in 0..<dimension { sums[centroid * dimension + d] += matrix[row * dimension + d] }
            }
            for centroid in 0..<k where sizes[centroid] > 0 {
                let slice = sums[(centroid * dimension)..<((centroid + 1) * dimension)]
                let norm = slice.reduce(0) { $0 + $1 * $1 }.squareRoot()
                guard norm > 0 else { continue }
                for d in 0..<dimension { centroids[centroid * dimension + d] = sums[centroid * dimension + d] / norm }
            }
        }
        return centroids
    }

    /// Splits `0..<count` among the cores and concatenates the parts' results in order.
    private static func parallel<T>(_ count: Int, _ body: @Sendable (Range<Int>) -> [T]) -> [T] {
        let parts = min(count, ProcessInfo.processInfo.activeProcessorCount * 4)
        guard parts > 1 else { return body(0..<count) }
        let results = ResultSlots<[T]>(count: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            results.set(part, body((part * count / parts)..<((part + 1) * count / parts)))
        }
        return results.values.flatMap { $0 }
    }
}

/// One result slot per part of a `concurrentPerform`, each written by one iteration.
private final class ResultSlots<T>: @unchecked Sendable {
    private var slots: [T?]
    private let lock = NSLock()

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ value: T) {
        lock.withLock { slots[index] = value }
    }

    var values: [T] { lock.withLock { slots.map { $0! } } }
}
