import Foundation
import MnemoEvaluation

/// What `mnemo eval` prints; the JSON starts with the keys scripts read first, kept stable
/// (`dataset`, `mode`, `queries`, `ndcg_at_10`, `recall_at_10`, `recall_at_100`, `mrr_at_10`).
struct EvalOutput: Encodable {
    var dataset: String
    var mode: String
    var queries: Int
    var ndcgAt10: Double
    var recallAt10: Double
    var recallAt100: Double
    var mrrAt10: Double
    var documents: Int
    var truncatedDocuments: Int
    var model: String?
    /// Texts the encoder embedded in this run; 0 when the cache had them all.
    var encodedTexts: Int
    var cacheFile: String?
    var indexSeconds: Double
    var searchSeconds: Double
    /// With `--context-budget`: evidence recall of contexts and of the packed ranking, per budget.
    var context: [ContextFigures]?
    var searchLatencyMs: Latency?
    var contextLatencyMs: Latency?

    struct ContextFigures: Encodable {
        var budget: Int
        var contextEvidenceRecall: Double
        var topkEvidenceRecall: Double
        var categories: [String: CategoryFigures]
    }

    struct CategoryFigures: Encodable {
        var queries: Int
        var contextEvidenceRecall: Double
        var topkEvidenceRecall: Double
    }

    struct Latency: Encodable {
        var p50: Double
        var p95: Double
        init(_ stats: LatencyStats) {
            p50 = stats.p50.milliseconds
            p95 = stats.p95.milliseconds
        }
    }

    // Explicit keys: the snake-case conversion would write "ndcg_at10".
    enum CodingKeys: String, CodingKey {
        case dataset, mode, queries, documents, model
        case ndcgAt10 = "ndcg_at_10"
        case recallAt10 = "recall_at_10"
        case recallAt100 = "recall_at_100"
        case mrrAt10 = "mrr_at_10"
        case truncatedDocuments = "truncated_documents"
        case encodedTexts = "encoded_texts"
        case cacheFile = "cache_file"
        case indexSeconds = "index_seconds"
        case searchSeconds = "search_seconds"
        case context
        case searchLatencyMs = "search_latency_ms"
        case contextLatencyMs = "context_latency_ms"
    }

    init(_ report: EvaluationRun.Report, model: String?) {
        dataset = report.dataset
        mode = report.mode.rawValue
        queries = report.metrics.queries
        ndcgAt10 = report.metrics.ndcgAt10
        recallAt10 = report.metrics.recallAt10
        recallAt100 = report.metrics.recallAt100
        mrrAt10 = report.metrics.mrrAt10
        documents = report.documents
        truncatedDocuments = report.truncatedDocuments
        self.model = model
        encodedTexts = report.encodedTexts
        cacheFile = report.cacheFile?.path
        indexSeconds = report.indexingTime.seconds
        searchSeconds = report.searchTime.seconds
        if !report.contextRecall.isEmpty {
            context = report.contextRecall.map { recall in
                ContextFigures(
                    budget: recall.budget, contextEvidenceRecall: recall.contextEvidenceRecall,
                    topkEvidenceRecall: recall.topkEvidenceRecall,
                    categories: recall.categories.mapValues {
                        CategoryFigures(
                            queries: $0.queries, contextEvidenceRecall: $0.contextEvidenceRecall,
                            topkEvidenceRecall: $0.topkEvidenceRecall)
                    })
            }
            searchLatencyMs = report.searchLatency.map(Latency.init)
            contextLatencyMs = report.contextLatency.map(Latency.init)
        }
    }

    var text: String {
        var lines = [
            "\(dataset) · \(mode)\(model.map { " · \($0)" } ?? "") · \(queries) queries over \(documents.formatted()) documents"
        ]
        lines.append(
            Output.table(
                ["metric", "value"],
                [
                    ["nDCG@10", String(format: "%.4f", ndcgAt10)],
                    ["Recall@10", String(format: "%.4f", recallAt10)],
                    ["Recall@100", String(format: "%.4f", recallAt100)],
                    ["MRR@10", String(format: "%.4f", mrrAt10)],
                ]))
        var timing = String(format: "indexed in %.1f s, searched in %.1f s", indexSeconds, searchSeconds)
        if model != nil {
            timing += encodedTexts == 0 ? "; every vector from the cache" : "; \(encodedTexts) texts encoded"
        }
        if truncatedDocuments > 0 { timing += "; \(truncatedDocuments) documents cut to 4,096 characters" }
        lines.append(timing)
        if let context {
            lines.append(
                Output.table(
                    ["budget", "context evidence recall", "top-k evidence recall"],
                    context.map {
                        [
                            "\($0.budget)", String(format: "%.4f", $0.contextEvidenceRecall),
                            String(format: "%.4f", $0.topkEvidenceRecall),
                        ]
                    }))
            if let search = searchLatencyMs, let built = contextLatencyMs {
                lines.append(
                    String(
                        format: "search p50 %.2f ms, p95 %.2f ms; context at %d tokens p50 %.2f ms, p95 %.2f ms",
                        search.p50, search.p95, context[0].budget, built.p50, built.p95))
            }
        }
        return lines.joined(separator: "\n")
    }
}
