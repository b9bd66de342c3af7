import Foundation

/// A retrieved document and its score, higher is better.
public struct ScoredDocument: Hashable, Sendable {
    public var id: String
    public var score: Double

    public init(id: String, score: Double) {
        self.id = id
        self.score = score
    }
}

/// nDCG@10, Recall@10, Recall@100 and MRR@10, averaged over queries, computed as BEIR computes
/// them, so figures compare with published tables:
///
/// - A retrieved document whose id equals the query's id is dropped first (BEIR's
///   `ignore_identical_ids`, which matters for collections where queries are also documents).
/// - nDCG@k, Recall@k (pytrec_eval, that is trec_eval): the run is sorted by score, ties broken
///   by document id in decreasing order. DCG = Σᵢ relᵢ / log₂(i + 1) over the first k, with the
///   graded relevance as gain; the ideal DCG sorts the query's judgements. Recall@k is the number
///   of relevant documents (grade ≥ 1) in the first k over the number of relevant documents.
/// - MRR@k (BEIR's own code): 1 / rank of the first relevant document in the first k, the run
///   sorted by score with ties kept in retrieval order.
/// - Every judged query counts, including one with no results (it scores 0) and one without
///   relevant documents (0 as well, as trec_eval gives).
public struct RetrievalMetrics: Hashable, Sendable {
    /// The number of queries averaged over.
    public var queries: Int
    public var ndcgAt10: Double
    public var recallAt10: Double
    public var recallAt100: Double
    public var mrrAt10: Double

    public init(queries: Int, ndcgAt10: Double, recallAt10: Double, recallAt100: Double, mrrAt10: Double) {
        self.queries = queries
        self.ndcgAt10 = ndcgAt10
        self.recallAt10 = recallAt10
        self.recallAt100 = recallAt100
        self.mrrAt10 = mrrAt10
    }

    /// Averages the metrics over every query in `qrels`.
    /// - Parameters:
    ///   - results: query id → retrieved documents, in retrieval order (for MRR's ties).
    ///   - qrels: query id → document id → relevance grade.
    public static func evaluate(_ results: [String: [ScoredDocument]], qrels: [String: [String: Int]])
        -> RetrievalMetrics
    {
        var totals = (ndcg: 0.0, recall10: 0.0, recall100: 0.0, mrr: 0.0)
        for (queryID, judgements) in qrels {
            let retrieved = (results[queryID] ?? []).filter { $0.id != queryID }
            let trecRanking = Self.trecOrder(retrieved)
            // Swift's sort is not stable: keep retrieval order among equal scores explicitly.
            let beirOrder = retrieved.enumerated()
                .sorted {
                    $0.element.score != $1.element.score ? $0.element.score > $1.element.score : $0.offset < $1.offset
                }
                .map(\.element.id)
            totals.ndcg += ndcg(trecRanking, judgements: judgements, k: 10)
            totals.recall10 += recall(trecRanking, judgements: judgements, k: 10)
            totals.recall100 += recall(trecRanking, judgements: judgements, k: 100)
            totals.mrr += reciprocalRank(beirOrder, judgements: judgements, k: 10)
        }
        let count = Double(max(qrels.count, 1))
        return RetrievalMetrics(
            queries: qrels.count, ndcgAt10: totals.ndcg / count, recallAt10: totals.recall10 / count,
            recallAt100: totals.recall100 / count, mrrAt10: totals.mrr / count)
    }

    /// Document ids sorted as trec_eval sorts a run: by score, ties by id in decreasing order.
    static func trecOrder(_ retrieved: [ScoredDocument]) -> [String] {
        retrieved.sorted { $0.score != $1.score ? $0.score > $1.score : $0.id > $1.id }.map(\.id)
    }

    /// nDCG@k of one ranking (best first) against graded judgements.
    public static func ndcg(_ ranking: [String], judgements: [String: Int], k: Int) -> Double {
        let ideal = judgements.values.filter { $0 > 0 }.sorted(by: >).prefix(k)
        let idealDCG = ideal.enumerated().reduce(0.0) { $0 + Double($1.element) / log2(Double($1.offset + 2)) }
        guard idealDCG > 0 else { return 0 }
        let dcg = ranking.prefix(k).enumerated().reduce(0.0) { sum, entry in
            sum + Double(max(0, judgements[entry.element] ?? 0)) / log2(Double(entry.offset + 2))
        }
        return dcg / idealDCG
    }

    /// The share of the relevant documents (grade ≥ 1) found in the first `k`.
    public static func recall(_ ranking: [String], judgements: [String: Int], k: Int) -> Double {
        let relevant = judgements.filter { $0.value > 0 }.count
        guard relevant > 0 else { return 0 }
        let found = Set(ranking.prefix(k)).filter { (judgements[$0] ?? 0) > 0 }.count
        return Double(found) / Double(relevant)
    }

    /// 1 / rank of the first relevant document among the first `k`, or 0.
    public static func reciprocalRank(_ ranking: [String], judgements: [String: Int], k: Int) -> Double {
        guard let index = ranking.prefix(k).firstIndex(where: { (judgements[$0] ?? 0) > 0 }) else { return 0 }
        return 1 / Double(index + 1)
    }
}
