import Foundation
import GRDB

extension KnowledgeBase {
    /// Searches the namespace's facts.
    ///
    /// Text that holds nothing searchable (empty, only punctuation or emoji) returns no hits; no
    /// input ever raises a full-text syntax error.
    public func search(_ query: SearchQuery) async throws -> [SearchHit] {
        guard query.limit > 0 else { return [] }
        switch query.mode {
        case .text:
            return try await textSearch(query)
        case .semantic, .hybrid:
            throw MnemoError.invalidArgument("\(query.mode.rawValue) search needs an embedder")
        }
    }

    /// Searches with default options: the 10 best active facts for `text`.
    public func search(_ text: String, mode: SearchMode = .text, limit: Int = 10) async throws -> [SearchHit] {
        try await search(SearchQuery(text, mode: mode, limit: limit))
    }

    func textSearch(_ query: SearchQuery) async throws -> [SearchHit] {
        guard let textQuery = TextQuery(query.text, matching: query.matching) else { return [] }
        let namespace = namespace
        return try await writer.read { db in
            try TextSearcher.search(db, namespace: namespace, query: textQuery, filter: query.filter,
                                    limit: query.limit, offset: query.offset)
        }
    }
}
