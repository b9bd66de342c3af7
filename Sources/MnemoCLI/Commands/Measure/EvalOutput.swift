import Foundation
import MnemoEvaluation

/// What `mnemo eval` prints; the JSON starts with the DESIGN.md keys.
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

    // Explicit keys: the snake-case conversion would write "ndcg_at10".
    enum CodingKeys: String, CodingKey {
        case dataset, mode, queries, documents, model
        case ndcgAt10 = "ndcg_at_10", recallAt10 = "recall_at_10", recallAt100 = "recall_at_100", mrrAt10 = "mrr_at_10"
        case truncatedDocuments = "truncated_documents", encodedTexts = "encoded_texts", cacheFile = "cache_file"
        case indexSeconds = "index_seconds", searchSeconds = "search_seconds"
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
    }

    var text: String {
        var lines = ["\(dataset) · \(mode)\(model.map { " · \($0)" } ?? "") · \(queries) queries over \(documents.formatted()) documents"]
        lines.append(Output.table(["metric", "value"], [
            ["nDCG@10", String(format: "%.4f", ndcgAt10)],
            ["Recall@10", String(format: "%.4f", recallAt10)],
            ["Recall@100", String(format: "%.4f", recallAt100)],
            ["MRR@10", String(format: "%.4f", mrrAt10)],
        ]))
        var timing = String(format: "indexed in %.1f s, searched in %.1f s", indexSeconds, searchSeconds)
        if model != nil { timing += encodedTexts == 0 ? "; every vector from the cache" : "; \(encodedTexts) texts encoded" }
        if truncatedDocuments > 0 { timing += "; \(truncatedDocuments) documents cut to 4,096 characters" }
        lines.append(timing)
        return lines.joined(separator: "\n")
    }
}
