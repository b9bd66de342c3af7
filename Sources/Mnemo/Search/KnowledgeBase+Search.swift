import Foundation
import GRDB

extension KnowledgeBase {
    /// Searches the namespace's facts.
    ///
    /// Text that holds nothing searchable (empty, only punctuation or emoji) returns no text hits;
    /// no input ever raises a full-text syntax error. Semantic and hybrid modes need an
    /// ``embedder``; every filter is applied during the vector scan, so `limit` results come
    /// back whenever that many facts pass it.
    ///
    /// A search in a cancelled task returns no hits: it throws `CancellationError` before it
    /// starts, after the query is embedded, and before it returns.
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` for a negative `limit` or `offset`,
    ///   a `minSimilarity` outside -1…1, or a semantic or hybrid ``SearchQuery/mode`` on a
    ///   knowledge base without an embedder; `CancellationError` when the task is cancelled.
    public func search(_ query: SearchQuery) async throws -> [SearchHit] {
        try await search(query, queryVector: nil)
    }

    /// ``search(_:)`` with the query's embedding, when the caller has it already.
    func search(_ query: SearchQuery, queryVector: [Float]?) async throws -> [SearchHit] {
        try Task.checkCancellation()
        try Self.validatePage(limit: query.limit, offset: query.offset)
        if let minSimilarity = query.minSimilarity, !(minSimilarity.isFinite && (-1...1).contains(minSimilarity)) {
            throw MnemoError.invalidInput(
                field: "minSimilarity", reason: "\(minSimilarity) is not a cosine similarity (-1…1)")
        }
        let mode = resolvedMode(query.mode)
        if mode != .text, vectorIndex == nil {
            throw MnemoError.invalidInput(
                field: "mode",
                reason:
                    "\(mode.rawValue) search needs an embedder: open the knowledge base with one, or search in text mode"
            )
        }
        if let floor = query.relativeScoreFloor, !(floor.isFinite && (0...1).contains(floor)) {
            throw MnemoError.invalidInput(
                field: "relativeScoreFloor", reason: "\(floor) is not a share of the best score (0…1)")
        }
        guard query.limit > 0 else { return [] }
        if query.filter.statuses != nil { return try await searchGoals(query, queryVector: queryVector) }
        let hits: [SearchHit]
        switch mode {
        case .text: hits = try await textSearch(query)
        case .semantic: hits = try await semanticSearch(query, queryVector: queryVector)
        case .hybrid: hits = try await hybridSearch(query, queryVector: queryVector)
        }
        // The scan itself takes milliseconds; checking once more here means hits never reach a
        // task that was cancelled while they were computed.
        try Task.checkCancellation()
        return hits
    }

    /// A search narrowed to goals of some statuses: the vector scan knows types but not
    /// statuses, so the goals are searched four pages deep and their statuses checked on the
    /// hits (goals are few; a page may still come back short when most goals have another status).
    private func searchGoals(_ query: SearchQuery, queryVector: [Float]?) async throws -> [SearchHit] {
        var inner = query
        inner.filter.types = (query.filter.types ?? Set(FactType.allCases)).intersection([.goal])
        inner.filter.statuses = nil
        inner.offset = 0
        inner.limit = min(4 * (query.offset + query.limit), Int(Int32.max) / 4)
        let hits = try await search(inner, queryVector: queryVector).filter { query.filter.admits(status: $0.fact) }
        return Array(hits.dropFirst(query.offset).prefix(query.limit))
    }

    /// Searches with default options: the 10 best active facts for `text`, hybrid when the
    /// knowledge base has an embedder and text otherwise.
    public func search(_ text: String, mode: SearchMode? = nil, limit: Int = 10) async throws -> [SearchHit] {
        try await search(SearchQuery(text, mode: mode, limit: limit))
    }

    /// The mode a query runs in: the one asked for, else hybrid with an embedder and text without.
    public func resolvedMode(_ mode: SearchMode?) -> SearchMode {
        mode ?? (embedder == nil ? .text : .hybrid)
    }

    /// Checks a page's bounds.
    static func validatePage(limit: Int, offset: Int) throws(MnemoError) {
        guard limit >= 0 else { throw MnemoError.invalidInput(field: "limit", reason: "\(limit) is negative") }
        guard offset >= 0 else { throw MnemoError.invalidInput(field: "offset", reason: "\(offset) is negative") }
        // Depths are computed from offset + limit (tripled for hybrid search): keep them far from overflow.
        guard offset <= Int(Int32.max) - min(limit, Int(Int32.max)) else {
            throw MnemoError.invalidInput(field: "offset", reason: "offset + limit exceeds \(Int32.max)")
        }
    }

    /// Text search. From `splitRows` facts (the highest fact id) on a machine of several cores,
    /// the matches are ranked in two halves of the id range at once, one on each of two
    /// connections and threads (``TextSearcher/rankingInHalves(_:namespace:query:filter:limit:offset:highestID:)``):
    /// a query of common words at a million facts scores tens of thousands of matches.
    func textSearch(_ query: SearchQuery, splitRows: Int64 = TextSearcher.splitRankingRows) async throws
        -> [SearchHit]
    {
        guard let textQuery = TextQuery(query.text, matching: query.matching) else { return [] }
        let split = VectorSnapshot.defaultThreads > 1
        let (page, rows) = try readNow { db -> ([SearchHit]?, Int64) in
            let rows = try FactTable.highestID(db)
            guard !split || rows < splitRows else { return (nil, rows) }
            let ranking = try TextSearcher.ranking(
                db, namespace: namespace, query: textQuery, filter: query.filter,
                limit: query.limit, offset: query.offset)
            return (try textHits(db, ranking: ranking, query: textQuery, rows: rows), rows)
        }
        if let page { return page }
        let ranking = try TextSearcher.rankingInHalves(
            writer, namespace: namespace, query: textQuery, filter: query.filter,
            limit: query.limit, offset: query.offset, highestID: rows)
        return try readNow { db in try textHits(db, ranking: ranking, query: textQuery, rows: rows) }
    }

    /// A text search's page of hits for `ranking`: the facts, their snippets, conflicts and word coverage.
    private func textHits(_ db: Database, ranking: TextSearcher.Ranking, query: TextQuery, rows: Int64) throws
        -> [SearchHit]
    {
        guard !ranking.matches.isEmpty else { return [] }
        // One tokenizer marks the snippets and weighs the hits' words.
        let matcher = try SnippetMaker(db, query: query)
        let marked = try TextSearcher.hits(db, namespace: namespace, matches: ranking.matches, matcher: matcher)
        let coverage = try TextSearcher.wordCoverage(
            db, query: query, hits: marked, matcher: matcher, phraseHits: ranking.phraseHits, rows: rows)
        return marked.map { marked in
            var hit = marked.hit
            hit.wordShare = coverage.facts[hit.fact.id] ?? 0
            hit.relevance = Relevance.words(share: hit.wordShare ?? 0)
            return hit
        }
    }

    func semanticSearch(_ query: SearchQuery, queryVector: [Float]? = nil) async throws -> [SearchHit] {
        // Text with nothing searchable (only punctuation, emoji) asks for nothing in any mode.
        guard TextQuery(query.text) != nil else { return [] }
        let vector: [Float]
        if let queryVector { vector = queryVector } else { vector = try await queryEmbedding(query.text) }
        let matches = try nearestFacts(
            query, vector: vector, count: query.offset + query.limit, in: try await vectorSnapshot())
        let floor = Self.scoreFloor(best: matches.first.map { Double($0.similarity) }, share: query.relativeScoreFloor)
        let page = Array(matches.dropFirst(query.offset).prefix { Double($0.similarity) >= floor })
        guard !page.isEmpty else { return [] }
        let namespace = namespace
        return try readNow { db in
            let facts = try FactTable.factsWithPartners(db, namespace: namespace, ids: page.map(\.id))
            return page.compactMap { match in
                facts[match.id].map {
                    SearchHit(
                        fact: $0.fact, score: Double(match.similarity), textScore: nil,
                        similarity: Double(match.similarity), snippet: nil,
                        relevance: Relevance.meaning(similarity: Double(match.similarity)),
                        conflictsWith: $0.conflictPartners)
                }
            }
        }
    }

    func hybridSearch(_ query: SearchQuery, queryVector precomputed: [Float]? = nil) async throws -> [SearchHit] {
        let depth = query.hybridCandidateDepth
        // Text with nothing searchable (only punctuation, emoji) asks for nothing in any mode.
        guard let textQuery = TextQuery(query.text, matching: query.matching) else { return [] }
        let namespace = namespace
        let writer = writer
        let queryVector: [Float]
        if let precomputed { queryVector = precomputed } else { queryVector = try await queryEmbedding(query.text) }
        // Only ids and scores for the candidates: facts and snippets are read for the page. The
        // text ranking runs as one task of the vector scan, which takes every core.
        let textRanking = Locked<
            Result<(matches: [TextSearcher.Match], coverage: TextSearcher.WordCoverage), any Error>
        >(
            .success(([], .init(query: 0, facts: [:]))))
        let filter = query.filter
        let rankText: @Sendable () -> Void = {
            let ranking: Result<(matches: [TextSearcher.Match], coverage: TextSearcher.WordCoverage), any Error>
            do {
                ranking = .success(
                    try writer.read { db in
                        let ranking = try TextSearcher.ranking(
                            db, namespace: namespace, query: textQuery, filter: filter, limit: depth, offset: 0)
                        let coverage = try TextSearcher.wordCoverage(
                            db, query: textQuery, facts: ranking.matches.map(\.id), phraseHits: ranking.phraseHits)
                        return (ranking.matches, coverage)
                    })
            } catch {
                ranking = .failure(error)
            }
            textRanking.withLock { $0 = ranking }
        }
        let store = try await vectorSnapshot()
        let semantic = try nearestFacts(query, vector: queryVector, count: depth, in: store, alongside: rankText)
        let (text, coverage) = try textRanking.withLock { $0 }.get()
        var candidates: [Int64: HybridCandidate] = [:]
        for (rank, match) in semantic.enumerated() {
            candidates[match.id] = HybridCandidate(similarity: Double(match.similarity), semanticRank: rank + 1)
        }
        for (rank, match) in text.enumerated() {
            let similarity = candidates[match.id]?.similarity ?? store.similarity(of: match.id, to: queryVector)
            // A text hit below the similarity floor is still kept: its words matched.
            candidates[match.id, default: HybridCandidate(similarity: similarity)].textRank = rank + 1
            candidates[match.id]?.textScore = match.relevance
            candidates[match.id]?.wordShare = coverage.facts[match.id]
        }
        let fused = query.fusion.fuse(candidates, wordCoverage: coverage.query)
        let floor = Self.scoreFloor(best: fused.first?.score, share: query.relativeScoreFloor)
        let page = Array(fused.dropFirst(query.offset).prefix(query.limit).prefix { $0.score >= floor })
        let textIDs = Set(page.map(\.id).filter { candidates[$0]?.textRank != nil })
        guard !page.isEmpty else { return [] }
        return try readNow { db in
            let facts = try FactTable.factsWithPartners(db, namespace: namespace, ids: page.map(\.id))
            let maker = textIDs.isEmpty ? nil : try SnippetMaker(db, query: textQuery)
            return page.compactMap { entry in
                facts[entry.id].map {
                    SearchHit(
                        fact: $0.fact, score: entry.score, textScore: candidates[entry.id]?.textScore,
                        similarity: candidates[entry.id]?.similarity,
                        snippet: textIDs.contains(entry.id) ? maker?.snippet($0.fact.content) : nil,
                        relevance: candidates[entry.id].map {
                            Relevance.combined(similarity: $0.similarity, share: $0.wordShare ?? 0)
                        }, conflictsWith: $0.conflictPartners, wordShare: candidates[entry.id].map { $0.wordShare ?? 0 }
                    )
                }
            }
        }
    }

    /// The lowest score a hit may have: `share` of the best score. With a best score at or
    /// below zero nothing is similar at all, and no hit passes.
    static func scoreFloor(best: Double?, share: Double?) -> Double {
        guard let share, share > 0, let best else { return -.infinity }
        return best > 0 ? share * best : .infinity
    }

    /// The best `count` facts of `store` by cosine similarity that pass the query's filter.
    ///
    /// `work` runs as one task of the scan (see `VectorSnapshot.nearest(to:k:filter:alongside:)`).
    func nearestFacts(
        _ query: SearchQuery, vector: [Float], count: Int, in store: VectorSnapshot,
        alongside work: (@Sendable () -> Void)? = nil
    ) throws -> [VectorSnapshot.Match] {
        let topicIDs = try topicIDs(inSubtreeOf: query.filter.topicPath)
        guard let namespaceCode = store.namespaceCode(namespace) else {
            work?()
            return []
        }
        let filter = VectorFilter(query.filter, namespaceCode: namespaceCode, topicIDs: topicIDs)
        let precision: VectorSnapshot.Precision =
            query.vectorScan == .quantized ? .quantized(rescoreFactor: 10) : .exact
        // Expired facts keep their vectors until a purge erases them: the scan asks for as many
        // more as there are, and drops them, so `count` others still come back. There are
        // usually none (one probe of a partial index).
        let expired = try readNow { db in try FactTable.expiredIDs(db, namespace: namespace, now: Date()) }
        let matches: [VectorSnapshot.Match]
        if query.vectorScan == .approximate, let vectorIndex {
            matches = vectorIndex.approximateNearest(
                in: store, namespace: namespace, query: vector, k: count + expired.count, filter: filter,
                minSimilarity: query.minSimilarity.map(Float.init), alongside: work)
        } else {
            matches = store.nearest(
                to: vector, k: count + expired.count, filter: filter,
                minSimilarity: query.minSimilarity.map(Float.init), precision: precision, alongside: work)
        }
        return expired.isEmpty ? matches : Array(matches.lazy.filter { !expired.contains($0.id) }.prefix(count))
    }

    /// Builds the graph index of this namespace's facts now (see ``VectorScan/approximate``), if
    /// it holds at least the minimum for one, and returns once it is ready (true) or at once when
    /// the namespace is too small for one (false); searches otherwise start the build in the
    /// background and scan exactly until it is done. `progress` is told the facts inserted so far
    /// and their number while the graph is built (not when it is read from its saved file).
    ///
    /// Cancelling the task stops the build within about a millisecond per building thread and
    /// throws `CancellationError`: no graph is installed or saved, searches go on scanning, and
    /// the next search or call builds it anew. Releasing every knowledge base of the database
    /// stops a build running in the background the same way.
    @discardableResult
    package func buildVectorGraph(progress: ((_ done: Int, _ total: Int) -> Void)? = nil) async throws -> Bool {
        let namespace = namespace
        let approximate = vectorIndex?.approximate
        // Loading the snapshot may itself start the build in the background: a cancellation
        // while it loads stops that build too.
        return try await withTaskCancellationHandler {
            let store = try await vectorSnapshot()
            guard let vectorIndex, let code = store.namespaceCode(namespace),
                (store.rows(ofNamespace: code)?.count ?? store.count) >= vectorIndex.approximate.settings.minimumRows
            else { return false }
            try await vectorIndex.buildGraph(of: namespace, progress: progress)
            return true
        } onCancel: {
            approximate?.cancelBuild(of: namespace)
        }
    }

    /// How many semantic and hybrid searches with ``VectorScan/approximate`` took each path
    /// (`exactScan`, `passingRows`, `graph`, `graphThenScan`, `buildingScan`), for benchmarks.
    package var approximateSearchPaths: [String: Int] {
        Dictionary(
            uniqueKeysWithValues: (vectorIndex?.approximate.pathCounts ?? [:]).map { ($0.key.rawValue, $0.value) })
    }

    /// The beam width of approximate searches' graph walks (HNSW's `ef`; at least the limit is
    /// used), for benchmarks that measure recall against latency.
    package var approximateSearchWidth: Int {
        get { vectorIndex?.approximate.settings.searchWidth ?? 0 }
        set { vectorIndex?.approximate.settings.searchWidth = newValue }
    }

    /// Forces the path of approximate searches under a filter a minority of rows pass, for
    /// benchmarks that time both: `"listing"` (list the passing rows and score them), `"walk"`
    /// (the graph), or `nil` (the cost model chooses).
    package var approximateFilteredPath: String? {
        get { vectorIndex?.approximate.settings.forcedFilteredPath?.rawValue }
        set {
            vectorIndex?.approximate.settings.forcedFilteredPath = newValue.flatMap {
                ApproximateIndex.Settings.FilteredPath(rawValue: $0)
            }
        }
    }

    /// How many graph indexes this knowledge base's vector index built from the vectors and how
    /// many it read from their saved files, for benchmarks.
    package var vectorGraphOrigins: (builds: Int, loads: Int) {
        let statistics = vectorIndex?.approximate.statistics
        return (statistics?.builds ?? 0, statistics?.loads ?? 0)
    }

    func vectorSnapshot() async throws -> VectorSnapshot {
        guard let vectorIndex else {
            throw MnemoError.invalidInput(
                field: "mode", reason: "semantic and hybrid search need an embedder: open the knowledge base with one")
        }
        do {
            return try vectorIndex.snapshot(writer.base, noting: AnswerCursor.current)
        } catch {
            throw MnemoError(error)
        }
    }

    func queryEmbedding(_ text: String) async throws -> [Float] {
        try await embed([text])?.first ?? [] // `embed` checks for cancellation before and after
    }

    /// The ids of the topic at `path` and its descendants; `nil` when `path` is `nil`.
    func topicIDs(inSubtreeOf path: TopicPath?) throws -> Set<Int64>? {
        guard let path else { return nil }
        let key = path.key
        return try readNow { db in try TopicTable.subtreeIDs(db, namespace: namespace, pathKey: key) }
    }

    /// The namespace's facts with these ids, by id.
    func facts(ids: [Int64]) throws -> [Int64: Fact] {
        guard !ids.isEmpty else { return [:] }
        return try readNow { db in try FactTable.facts(db, namespace: namespace, ids: ids) }
    }

    /// Runs a short read on the calling thread.
    ///
    /// Search reads take well under a millisecond and never suspend. GRDB's async `read` would
    /// run them on the connection's queue and resume the task afterwards: two thread hand-offs,
    /// each as costly as a good part of the read itself (together they doubled a short text
    /// search's p50 on a 2-core machine). Holding the task's thread for the read instead is what
    /// the vector scan does for its own work.
    func readNow<T>(_ body: (Database) throws -> T) throws -> T {
        try writer.read(body)
    }
}

extension VectorSnapshot {
    /// The cosine similarity of fact `id` to the unit vector `query`; 0 when it has no vector.
    func similarity(of id: Int64, to query: [Float]) -> Double {
        guard let vector = vector(of: id), vector.count == query.count else { return 0 }
        return vector.withUnsafeBufferPointer { row in
            query.withUnsafeBufferPointer {
                Double(VectorMath.dot(row.baseAddress!, $0.baseAddress!, count: query.count))
            }
        }
    }
}

extension SearchQuery {
    /// How many candidates each list of a hybrid search holds (the best word matches and the
    /// nearest facts) before fusion; `mnemo repl`'s `:explain` ranks a hit in the same lists.
    ///
    /// The fusion scales both lists by their best scores, so a fact tied with the text list's
    /// last candidate weighs as much as the candidate itself: a depth that moved with every page
    /// would let page 2 differ from results 11–20 of one longer search. Every search whose
    /// offset + limit is at most 33 therefore fuses lists of one fixed depth.
    package var hybridCandidateDepth: Int { max(100, 3 * (offset + limit)) }
}
