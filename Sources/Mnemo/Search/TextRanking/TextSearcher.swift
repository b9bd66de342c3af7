import Foundation
import GRDB

/// Full-text search over the FTS5 index, ranked by BM25.
///
/// FTS5 must compute BM25 for every matching row before it knows the best ones. ``BM25Function``
/// computes FTS5's own scores with the rows' sizes kept in memory, half the cost of `bm25()`,
/// and still most of a typical query's: merely listing the matches costs a fraction of ranking
/// them. Everything else is kept off that path:
///
/// 1. ``ranking(_:namespace:query:filter:limit:offset:)`` ranks the best `depth` matches inside the
///    index alone, then joins only those with `fact` and `topic` to apply the filter.
/// 2. ``hits(_:namespace:matches:matcher:)`` reads the facts of a page and marks the query's
///    words in their content (``SnippetMaker``).
///
/// When fewer than a page of candidates pass the filter and the index has more matches, the
/// ranking runs again with a depth eight times larger, until the page is full or every match
/// was ranked: results are exactly those of filtering all matches, in BM25 order.
enum TextSearcher {
    /// Relative BM25 weights of the indexed columns: content, then topic path.
    static let columnWeights = (content: 1.0, topic: 0.3)

    /// BM25 with those weights (see ``BM25Function``; more negative is better), with a parameter
    /// for ``BM25Function/phrasesArgument(_:narrowedTo:)``.
    static let rankFunction = BM25Function.sql(weights: columnWeights.content, columnWeights.topic)

    /// A fact that matched the words, with its BM25 relevance (higher is better).
    struct Match: Sendable {
        var id: Int64
        var relevance: Double
    }

    /// A page of ranked matches, and how many rows hold each of the query's phrases (in the
    /// order of ``TextQuery/phrases``) when the ranking counted them: `nil` when nothing matched.
    struct Ranking {
        var matches: [Match]
        var phraseHits: [Int]?
    }

    /// The page of matches that pass `filter`, best first, with the phrase counts the ranking
    /// made, for ``wordCoverage(_:query:facts:phraseHits:)``.
    ///
    /// Only facts whose ids are in `ids`, when given: BM25's statistics (each phrase's rows, the
    /// mean size) are still those of the whole index, so a match scores the same in any range.
    /// From `narrowingRows` facts (the highest fact id) the page is first sought among the rows
    /// holding two of the query's phrases (``narrowedRanking(_:namespace:query:filter:limit:offset:ids:)``).
    static func ranking(
        _ db: Database, namespace: String, query: TextQuery, filter: FactFilter, limit: Int, offset: Int,
        ids: ClosedRange<Int64>? = nil, narrowingRows: Int64 = narrowingRows
    ) throws -> Ranking {
        _ = BM25Function.takeCounts(db)
        if narrowingRows < .max, try FactTable.highestID(db) >= narrowingRows,
            let ranking = try narrowedRanking(
                db, namespace: namespace, query: query, filter: filter, limit: limit, offset: offset, ids: ids)
        {
            return ranking
        }
        let matches = try rankedMatches(
            db, namespace: namespace, pattern: query.pattern,
            phrases: BM25Function.phrasesArgument(query.phrases),
            filter: filter, limit: limit, offset: offset, ids: ids)
        let hits = BM25Function.takeCounts(db)?.phraseHits
        return Ranking(matches: matches, phraseHits: hits?.count == query.phrases.count ? hits : nil)
    }

    /// From this many facts, ``ranking(_:namespace:query:filter:limit:offset:ids:narrowingRows:)``
    /// first ranks the rows holding two of the query's phrases. Below it a query's matches are
    /// few enough to score them all (a thousand rows take about a millisecond), and a page the
    /// narrower ranking cannot fill would cost a second pass.
    static let narrowingRows: Int64 = 20_000

    /// The page ranked among fewer rows than the query matches (``TextQuery/narrowed(keeping:)``),
    /// when it is the page of all matches; else `nil`.
    ///
    /// A query of two or three common words matches tens of thousands of facts at a million, and
    /// BM25 must score them all; the rows holding two of the words are a few hundred. A row
    /// holding one phrase alone scores at most that phrase's bound (``BM25Function/Counts``): the
    /// best score of the phrase in any row, which the ranking finds as it counts the phrase's
    /// rows for the IDF. So when the page is full and its last match scores above the bound of
    /// every phrase whose rows alone were left out, no such row could enter it, and the page is
    /// exactly that of all matches: the scores are the same, since the IDF counts every row
    /// holding a phrase either way. This is MaxScore (Turtle and Flood, 1995) in two steps:
    ///
    /// 1. The rows holding two phrases or more.
    /// 2. Else the rows of some phrases as well. When the first page was full, those whose bound
    ///    reached its last score: the last score of all matches is at least that, so the phrases
    ///    left out stay below it. A word in most facts ("fas mou", where "fas" is in 80 % of
    ///    them) is left out, the rarer word kept. When it was not (few rows hold two of the
    ///    phrases, "tres geagron"), those whose bound is at least half the highest: the rows of
    ///    a rare word outscore a common word's, and the page's last score shows whether they did.
    private static func narrowedRanking(
        _ db: Database, namespace: String, query: TextQuery, filter: FactFilter, limit: Int, offset: Int,
        ids: ClosedRange<Int64>?
    ) throws -> Ranking? {
        guard limit > 0, let pairs = query.narrowed() else { return nil }
        func rank(_ narrowed: TextQuery.NarrowedPattern) throws -> (matches: [Match], counts: BM25Function.Counts?) {
            let matches = try rankedMatches(
                db, namespace: namespace, pattern: narrowed.pattern,
                phrases: BM25Function.phrasesArgument(query.phrases, narrowedTo: narrowed.phraseMap),
                filter: filter, limit: limit, offset: offset, ids: ids)
            return (matches, BM25Function.takeCounts(db))
        }
        let first = try rank(pairs)
        guard let bounds = first.counts?.singlePhraseBounds, let highestBound = bounds.max() else { return nil }
        let lastScore = first.matches.count == limit ? first.matches.last?.relevance : nil
        if let lastScore, highestBound < lastScore {
            return Ranking(matches: first.matches, phraseHits: first.counts?.phraseHits)
        }
        var kept = bounds.indices.filter { bounds[$0] >= lastScore ?? 0 }
        if kept.count == bounds.count {
            // No bound is known to fall short: a guess, which the check below proves or not. A
            // phrase of half the highest bound is common beside the rarest, whose rows are the best.
            kept = bounds.indices.filter { bounds[$0] >= highestBound / 2 }
        }
        guard kept.count < bounds.count, let wider = query.narrowed(keeping: kept) else { return nil }
        let second = try rank(wider)
        let leftOut = bounds.indices.filter { !kept.contains($0) }.map { bounds[$0] }
        guard second.matches.count == limit, let last = second.matches.last,
            leftOut.allSatisfy({ $0 < last.relevance })
        else { return nil }
        return Ranking(matches: second.matches, phraseHits: second.counts?.phraseHits)
    }

    /// From this many facts (the highest fact id), ``rankingInHalves(_:namespace:query:filter:limit:offset:highestID:)``
    /// ranks text matches on two threads.
    static let splitRankingRows: Int64 = 100_000

    /// ``ranking(_:namespace:query:filter:limit:offset:ids:)`` of the lower and the upper half of
    /// the fact ids at once, each in a read of its own on its own thread, merged.
    ///
    /// BM25 must score every match before it knows the best, and at a million facts a query of
    /// common words matches tens of thousands: each half scores half of them. The two reads may
    /// see different commits when a write lands between their starts, as the two lists of a
    /// hybrid search may; a read that saw none of the other's commit simply ranks without it.
    static func rankingInHalves(
        _ writer: StorageWriter, namespace: String, query: TextQuery, filter: FactFilter, limit: Int, offset: Int,
        highestID: Int64
    ) throws -> Ranking {
        let middle = highestID / 2
        func rank(_ ids: ClosedRange<Int64>) -> Result<Ranking, any Error> {
            Result {
                try writer.read { db in
                    try ranking(
                        db, namespace: namespace, query: query, filter: filter, limit: offset + limit, offset: 0,
                        ids: ids)
                }
            }
        }
        let (lower, upper) = onBothCores({ rank(Int64.min...middle) }, { rank((middle + 1)...Int64.max) })
        let (low, high) = (try lower.get(), try upper.get())
        // The order of one ranking: best first, then the lower id.
        let merged = (low.matches + high.matches).sorted {
            ($0.relevance, -$0.id) > ($1.relevance, -$1.id)
        }
        // A half without matches counted nothing; two reads of different commits may disagree.
        let phraseHits: [Int]? =
            switch (low.phraseHits, high.phraseHits) {
            case (let low?, let high?): low == high ? low : nil
            case (let low, let high): low ?? high
            }
        return Ranking(matches: Array(merged.dropFirst(offset).prefix(limit)), phraseHits: phraseHits)
    }

    /// The page of the matches of `pattern` that pass `filter`, best first; `phrases` is the
    /// rank function's argument for the pattern (``BM25Function/phrasesArgument(_:narrowedTo:)``).
    private static func rankedMatches(
        _ db: Database, namespace: String, pattern: String, phrases: String, filter: FactFilter, limit: Int,
        offset: Int, ids: ClosedRange<Int64>?
    ) throws -> [Match] {
        let conditions = try filter.sqlConditions(db, namespace: namespace)
        // Most matches pass the default filter (active facts of the namespace); a type,
        // importance or topic filter passes about one in five to ten.
        let isNarrow =
            filter.types != nil || filter.importances != nil || filter.minimumImportance != nil
            || filter.topicPath != nil || filter.activity == .inactiveOnly || filter.hasTimeRange
        let wanted = offset + limit
        var depth = max(isNarrow ? 200 : 50, wanted * (isNarrow ? 10 : 2))
        var matchCount: Int?
        while true {
            let sql = """
                WITH candidate AS MATERIALIZED (
                    SELECT rowid AS id, \(rankFunction) AS rank
                    FROM fact_fts WHERE fact_fts MATCH ?\(ids == nil ? "" : " AND rowid BETWEEN ? AND ?")
                    ORDER BY rank, rowid LIMIT ?
                )
                SELECT candidate.id, candidate.rank, (SELECT COUNT(*) FROM candidate)
                FROM candidate CROSS JOIN fact ON fact.id = candidate.id JOIN topic ON topic.id = fact.topic_id
                WHERE \(conditions.sql)
                ORDER BY candidate.rank, candidate.id LIMIT ? OFFSET ?
                """
            // MATERIALIZED keeps SQLite from folding the ranking into the join, which would read
            // `fact` for every match.
            let range: StatementArguments = ids.map { [$0.lowerBound, $0.upperBound] } ?? []
            let arguments: StatementArguments =
                [phrases, pattern] + range + [depth] + conditions.arguments + [limit, offset]
            var ranked = 0
            let matches = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map {
                ranked = $0[2]
                return Match(id: $0[0], relevance: -($0[1] as Double))
            }
            // Fewer candidates than the depth: every match was ranked, and counting them again
            // (a second pass over the index) would tell nothing new.
            if matches.count == limit || (1..<depth).contains(ranked) { return matches }
            let total =
                try matchCount ?? Int.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT COUNT(*) FROM fact_fts WHERE fact_fts MATCH ?"
                            + (ids == nil ? "" : " AND rowid BETWEEN ? AND ?")),
                    arguments: [pattern] + range) ?? 0
            matchCount = total
            if depth >= total { return matches }
            depth = depth > total / 8 ? total : depth * 8
        }
    }

    /// A page's hit, with the query's phrases its content holds (in the order of
    /// ``TextQuery/phrases``), for ``wordCoverage(_:query:hits:matcher:phraseHits:)``.
    struct MarkedHit {
        var hit: SearchHit
        var heldPhrases: [Bool]
    }

    /// Search hits for `matches`, in their order, with snippets marked by `matcher` and their
    /// conflicts.
    static func hits(_ db: Database, namespace: String, matches: [Match], matcher: SnippetMaker) throws -> [MarkedHit] {
        let facts = try FactTable.factsWithPartners(db, namespace: namespace, ids: matches.map(\.id))
        return matches.compactMap { match in
            facts[match.id].map {
                let marking = matcher.marking($0.fact.content)
                return MarkedHit(
                    hit: SearchHit(
                        fact: $0.fact, score: match.relevance, textScore: match.relevance, similarity: nil,
                        snippet: marking.snippet, conflictsWith: $0.conflictPartners),
                    heldPhrases: marking.heldPhrases)
            }
        }
    }
}
