import Foundation
import Mnemo

extension ReplSession {
    /// `:explain N`: why result N of the last search ranked where it did.
    ///
    /// Hybrid search ranks the union of two candidate lists, the best word matches (BM25) and
    /// the nearest facts by meaning (cosine), both as deep as the search looked. `:explain` runs
    /// the two lists again with the same filter to give the hit's place in each, and writes out
    /// the fusion with its numbers.
    func explain(_ argument: String) async throws {
        guard let (query, mode, hits) = lastSearch.map({ ($0.query, $0.mode, $0.hits) }), !hits.isEmpty else {
            throw CLIError(":explain N tells why result N of the last search ranked there; search first")
        }
        guard let number = Int(argument), (1...hits.count).contains(number) else {
            throw CLIError("usage: :explain N, where N is a result number from 1 to \(hits.count)")
        }
        var explanation = HitExplanation(query: query, mode: mode, hits: hits, number: number)
        if mode == .hybrid {
            let depth = query.hybridCandidateDepth
            var words = query
            (words.mode, words.limit, words.offset, words.minSimilarity) = (.text, depth, 0, nil)
            // Hybrid search fuses whole candidate lists: the weak-hit floor applies after fusion.
            var meaning = query
            (meaning.mode, meaning.limit, meaning.offset, meaning.relativeScoreFloor) = (.semantic, depth, 0, nil)
            explanation.place(in: try await kb.search(words), list: \.text)
            explanation.place(in: try await kb.search(meaning), list: \.semantic)
        }
        if json { return try Output.json(explanation) }
        print(explanation.rendered(style: style))
    }
}

/// Why one search result ranked where it did: its scores, its place in each candidate list,
/// and the fusion of the two.
struct HitExplanation: Encodable {
    /// A hit's place in one candidate list.
    struct Placement: Encodable {
        /// 1-based, or `nil` when the hit is not in the list.
        var rank: Int?
        /// How many candidates the list held (its depth when full).
        var candidates: Int
    }

    var id: Int64
    var content: String
    var mode: String
    var result: Int
    var results: Int
    var score: Double
    var textScore: Double?
    var similarity: Double?
    var text: Placement?
    var semantic: Placement?
    /// The fused score written out with its numbers, in hybrid mode.
    var fusion: String?
    var queryWords: [String]
    var matchedWords: [String]
    var above: Neighbour?
    var below: Neighbour?

    struct Neighbour: Encodable {
        var result: Int
        var id: Int64
        var score: Double
    }

    init(query: SearchQuery, mode searchMode: SearchMode, hits: [SearchHit], number: Int) {
        let hit = hits[number - 1]
        id = hit.fact.id
        content = hit.fact.content
        mode = searchMode.rawValue
        result = number
        results = hits.count
        score = hit.score
        textScore = hit.textScore
        similarity = hit.similarity
        let highlighter = QueryHighlighter(query: query.text)
        queryWords = highlighter.terms
        matchedWords = highlighter.matchedWords(in: hit.fact.content)
        if number > 1 {
            above = Neighbour(result: number - 1, id: hits[number - 2].fact.id, score: hits[number - 2].score)
        }
        if number < hits.count {
            below = Neighbour(result: number + 1, id: hits[number].fact.id, score: hits[number].score)
        }
        switch searchMode {
        case .text: text = Placement(rank: query.offset + number, candidates: hits.count)
        case .semantic: semantic = Placement(rank: query.offset + number, candidates: hits.count)
        case .hybrid: fusion = Self.fusion(query.fusion, hit: hit)
        }
    }

    mutating func place(in list: [SearchHit], list path: WritableKeyPath<HitExplanation, Placement?>) {
        self[keyPath: path] = Placement(
            rank: list.firstIndex { $0.fact.id == id }.map { $0 + 1 }, candidates: list.count)
    }

    /// The fused score as arithmetic: `0.612 + 0.6 × 7.21 / (7.21 + 32) = 0.722`.
    static func fusion(_ fusion: HybridFusion, hit: SearchHit) -> String {
        switch fusion {
        case .weightedScore(let textWeight, let saturation):
            let cosine = hit.similarity ?? 0
            let bm25 = max(0, hit.textScore ?? 0)
            let bonus = textWeight * bm25 / (bm25 + saturation)
            return "cosine + \(number(textWeight)) × bm25 / (bm25 + \(number(saturation))) = "
                + "\(number(cosine)) + \(number(textWeight)) × \(number(bm25)) / (\(number(bm25)) + \(number(saturation))) = "
                + "\(number(cosine)) + \(number(bonus)) = \(number(hit.score))"
        case .reciprocalRank(let k):
            return "Σ 1 / (\(number(k)) + rank) over the two lists = \(number(hit.score))"
        case .normalizedSum(let textWeight):
            // The per-query scales (best cosine, best BM25, word coverage) are not part of a hit.
            return
                "(1 − \(number(textWeight))·c²) × cosine / best cosine + \(number(textWeight))·c² × bm25 / best bm25 × s / best s, "
                + "c = share of the query's words in the memory, s = share in this fact; cosine \(number(hit.similarity ?? 0)), "
                + "bm25 \(number(max(0, hit.textScore ?? 0))) → \(number(hit.score))"
        }
    }

    func rendered(style: TerminalStyle) -> String {
        var lines = [
            style.bold("#\(id)") + " is result \(result) of \(results) (\(mode), score \(Self.number(score)))",
            "  " + content,
        ]
        func row(_ label: String, _ text: String) {
            lines.append("  " + style.bold(label.padding(toLength: 9, withPad: " ", startingAt: 0)) + text)
        }
        if mode != SearchMode.semantic.rawValue {
            let words = queryWords.isEmpty ? "no searchable words" : queryWords.joined(separator: ", ")
            let matched =
                matchedWords.isEmpty ? "none of them appear" : "matched \(matchedWords.joined(separator: ", "))"
            row("words", "\(words): \(matched)")
            switch (textScore, text?.rank) {
            case (let score?, let rank?):
                row("text", "BM25 \(Self.number(score)), rank \(rank) of \(text!.candidates) word matches")
            case (let score?, nil): row("text", "BM25 \(Self.number(score))")
            default: row("text", "no word match: found by meaning alone")
            }
        }
        if mode != SearchMode.text.rawValue {
            let cosine = similarity.map { "cosine \(Self.number($0))" } ?? "no vector"
            switch semantic?.rank {
            case let rank?: row("meaning", "\(cosine), rank \(rank) of the \(semantic!.candidates) nearest")
            case nil:
                row("meaning", "\(cosine), not among the \(semantic?.candidates ?? 0) nearest: found by its words")
            }
        }
        if let fusion { row("fusion", fusion) }
        if let above {
            row(
                "above",
                "result \(above.result) #\(above.id), score \(Self.number(above.score)) (+\(Self.number(above.score - score)))"
            )
        }
        if let below {
            row(
                "below",
                "result \(below.result) #\(below.id), score \(Self.number(below.score)) (−\(Self.number(score - below.score)))"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// Three decimals at most, without trailing zeros: `0.6`, `32`, `7.302`.
    static func number(_ value: Double) -> String {
        var text = String(format: "%.3f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
