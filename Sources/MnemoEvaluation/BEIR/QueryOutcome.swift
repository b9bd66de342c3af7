import Foundation

/// How one judged query fared: where its first relevant document ranked, so that failures can
/// be read one by one (`mnemo eval --per-query FILE`).
public struct QueryOutcome: Hashable, Sendable {
    public var queryID: String
    public var text: String
    /// 1-based rank of the first relevant document among the results (ordered as for nDCG);
    /// `nil` when none was retrieved.
    public var firstRelevantRank: Int?
    /// That document's id.
    public var firstRelevantID: String?
    /// The number of relevant documents judged for the query.
    public var relevantCount: Int
    public var ndcgAt10: Double
    public var recallAt10: Double

    /// The outcome of every query of `dataset`, in its order, from each query's ranking.
    static func outcomes(_ dataset: BEIRDataset, results: [String: [ScoredDocument]]) -> [QueryOutcome] {
        dataset.queries.map { query in
            let judgements = dataset.qrels[query.id] ?? [:]
            let ranking = RetrievalMetrics.trecOrder((results[query.id] ?? []).filter { $0.id != query.id })
            let index = ranking.firstIndex { (judgements[$0] ?? 0) > 0 }
            return QueryOutcome(
                queryID: query.id, text: query.text, firstRelevantRank: index.map { $0 + 1 },
                firstRelevantID: index.map { ranking[$0] }, relevantCount: judgements.values.filter { $0 > 0 }.count,
                ndcgAt10: RetrievalMetrics.ndcg(ranking, judgements: judgements, k: 10),
                recallAt10: RetrievalMetrics.recall(ranking, judgements: judgements, k: 10))
        }
    }

    /// Tab-separated lines under a header: query id, first relevant rank (empty when none was
    /// found), its document id, relevant count, nDCG@10, Recall@10, and the query text.
    public static func tsv(_ outcomes: [QueryOutcome]) -> String {
        var lines = ["query_id\tfirst_relevant_rank\tfirst_relevant_id\trelevant\tndcg_at_10\trecall_at_10\tquery"]
        for outcome in outcomes {
            let text = outcome.text.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ")
            lines.append(
                [
                    outcome.queryID, outcome.firstRelevantRank.map(String.init) ?? "", outcome.firstRelevantID ?? "",
                    String(outcome.relevantCount), String(format: "%.4f", outcome.ndcgAt10),
                    String(format: "%.4f", outcome.recallAt10), text,
                ].joined(separator: "\t"))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
