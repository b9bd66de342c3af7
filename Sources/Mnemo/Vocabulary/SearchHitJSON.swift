/// A search hit as every front door writes it: the fact's keys (``FactJSON``) and the scores,
/// `score`, `text_score`, `similarity`, `snippet`, `relevance` (each only when known) and
/// `conflicts_with`. The fact's keys include `created_at`, the date it was stated.
package struct SearchHitJSON: Encodable, Sendable {
    var fact: FactJSON
    var score: Double
    var textScore: Double?
    var similarity: Double?
    var snippet: String?
    var relevance: Double?
    var conflictsWith: [Int64]

    package init(_ hit: SearchHit) {
        fact = FactJSON(hit.fact)
        score = hit.score
        textScore = hit.textScore
        similarity = hit.similarity
        snippet = hit.snippet
        relevance = hit.relevance.map { ($0 * 1000).rounded() / 1000 }
        conflictsWith = hit.conflictsWith
    }

    private enum CodingKeys: String, CodingKey {
        case score, similarity, snippet, relevance
        case textScore = "text_score"
        case conflictsWith = "conflicts_with"
    }

    /// The fact's keys and the hit's in one flat object, as clients read them.
    package func encode(to encoder: any Encoder) throws {
        try fact.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(score, forKey: .score)
        try container.encodeIfPresent(textScore, forKey: .textScore)
        try container.encodeIfPresent(similarity, forKey: .similarity)
        try container.encodeIfPresent(snippet, forKey: .snippet)
        try container.encodeIfPresent(relevance, forKey: .relevance)
        try container.encode(conflictsWith, forKey: .conflictsWith)
    }
}

extension SearchHitJSON: JSONObjectWritable {
    package static let jsonFields = JSONOutput.Fields<SearchHitJSON>(
        FactJSON.jsonFields.lifted { hit, body in try body(hit.fact) } + [
            JSONOutput.Field(CodingKeys.score) { $0.score },
            JSONOutput.Field(CodingKeys.textScore, ifPresent: { $0.textScore }),
            JSONOutput.Field(CodingKeys.similarity, ifPresent: { $0.similarity }),
            JSONOutput.Field(CodingKeys.snippet, ifPresent: { $0.snippet }),
            JSONOutput.Field(CodingKeys.relevance, ifPresent: { $0.relevance }),
            JSONOutput.Field(CodingKeys.conflictsWith) { $0.conflictsWith },
        ])
}

/// The answer to a search: `{"query", "mode", "results": [hit, …]}`.
package struct SearchResultsJSON: Encodable, Sendable {
    var query: String
    var mode: SearchMode
    var results: [SearchHitJSON]

    package init(query: String, mode: SearchMode, hits: [SearchHit]) {
        self.query = query
        self.mode = mode
        results = hits.map(SearchHitJSON.init)
    }

    private enum CodingKeys: String, CodingKey {
        case query, mode, results
    }
}

extension SearchResultsJSON: JSONObjectWritable {
    package static let jsonFields = JSONOutput.Fields<SearchResultsJSON>([
        JSONOutput.Field(CodingKeys.query) { $0.query },
        JSONOutput.Field(CodingKeys.mode) { $0.mode },
        JSONOutput.Field(CodingKeys.results) { $0.results },
    ])
}
