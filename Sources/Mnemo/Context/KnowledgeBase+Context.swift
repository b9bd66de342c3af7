import Foundation

extension KnowledgeBase {
    /// The memory an assistant should see before it answers `message`, within `budget` tokens
    /// counted by ``ContextOptions/estimator``.
    ///
    /// Items come in three parts, each filling what the ones before left:
    /// 1. **Always**: active facts of at least ``ContextOptions/alwaysImportance``, up to
    ///    ``ContextOptions/alwaysShare`` of the budget (a quarter by default): those whose
    ///    relevance to the message reaches ``ContextOptions/minimumRelevance`` first, most
    ///    relevant first, then the others, most recently stated first.
    ///    They are there for every message, related or not: what the user said must never be
    ///    forgotten (an allergy) is worth its share of every prompt; the share keeps a user with
    ///    many such facts from crowding out the answer.
    /// 2. **Relevant**: the hits of a hybrid search for the message (text search without an
    ///    embedder), at most ``ContextOptions/candidates``, in the search's rank order, each
    ///    with its ``SearchHit/relevance`` as ``ContextItem/score``, while room is left; a hit
    ///    that no longer fits is skipped for the next. Those reaching
    ///    ``ContextOptions/minimumRelevance`` are the ones taken to answer the message
    ///    (``MemoryContext/nothingRelevant`` when there are none); the weaker ones still fill the
    ///    room, since a weak hit is likelier to help than a fact picked for recency. With
    ///    ``ContextOptions/relevanceWeight`` below 1 they are picked by maximal marginal
    ///    relevance instead: each next fact is the one with the best
    ///    `w × relevance − (1 − w) × (its highest cosine to a fact already in)`.
    /// 3. **Recent**: facts stated within ``ContextOptions/recentWindow`` before ``now``, newest
    ///    first, while room is left.
    ///
    /// Rank order is the measured choice: on LoCoMo, SciFact and the fixtures (`mnemo eval
    /// --context-budget`), taking the facts above the threshold first, or packing by relevance
    /// per token (a knapsack greedy, exact for calibrated probabilities), held less evidence
    /// than the plain ranking at most budgets: relevance knows only the cosine and the word
    /// share, the ranking also how a hit compares with the query's other hits, and a fact's
    /// length is evidence too (LoCoMo's evidence turns are longer than the others: 106 estimated
    /// tokens against 85).
    ///
    /// A fact that a chosen one conflicts with (``conflicts(limit:offset:)``) comes with it, the
    /// two lines next to each other, newer first, the newer marked as stated later; the pair goes
    /// in whole or not at all. No fact comes in that is a near duplicate (``NearDuplicateRule``)
    /// of one already in, and only active facts passing ``ContextOptions/filter`` appear.
    ///
    /// The rendered ``MemoryContext/text`` never costs more than `budget` by the estimator; a
    /// budget too small for any line gives an empty context.
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` for a negative budget or an option
    ///   out of range; what ``search(_:)`` throws.
    public func context(for message: String, budget: Int, options: ContextOptions = ContextOptions()) async throws
        -> MemoryContext
    {
        try Self.validate(budget: budget, options: options)
        var filter = options.filter
        filter.activity = .activeOnly
        let vector = TextQuery(message) == nil ? nil : try await embed([message])?.first
        let store = vector == nil ? nil : try await vectorSnapshot()

        let hits =
            TextQuery(message) == nil || options.candidates == 0
            ? []
            : try await search(
                SearchQuery(message, filter: filter, limit: options.candidates, relativeScoreFloor: nil),
                queryVector: vector)
        let relevant = hits.filter { ($0.relevance ?? 0) >= options.minimumRelevance }
        let relevanceOfHit = Dictionary(hits.map { ($0.fact.id, $0.relevance ?? 0) }, uniquingKeysWith: max)
        func relevance(_ fact: Fact) -> Double? {
            if let known = relevanceOfHit[fact.id] { return known }
            guard let vector, let store, store.contains(fact.id) else { return nil }
            return Relevance.meaning(similarity: store.similarity(of: fact.id, to: vector))
        }

        var alwaysFilter = filter
        alwaysFilter.minimumImportance = max(filter.minimumImportance ?? .negligible, options.alwaysImportance)
        let always = try await facts(matching: alwaysFilter, limit: 200).map { ($0, relevance($0)) }.sorted { a, b in
            // Relevance orders the facts that reach the threshold; below it, it is noise.
            let (ra, rb) = (
                a.1 ?? 0 >= options.minimumRelevance ? a.1! : -1, b.1 ?? 0 >= options.minimumRelevance ? b.1! : -1
            )
            if ra != rb { return ra > rb }
            return a.0.createdAt != b.0.createdAt ? a.0.createdAt > b.0.createdAt : a.0.id > b.0.id
        }
        var recentFilter = filter
        if let window = options.recentWindow {
            let start = now.addingTimeInterval(-window)
            recentFilter.since = max(filter.since ?? start, start)
        }
        let namespace = namespace
        let recent = try readNow { db in
            try FactTable.recent(db, namespace: namespace, filter: recentFilter, limit: max(options.candidates, 20))
        }

        let partners = try conflictPartners(of: always.map(\.0) + hits.map(\.fact) + recent, filter: filter)
        let rule = NearDuplicateRule()
        let keys = FactKeys()
        var packer = ContextPacker(budget: budget, estimator: options.estimator) { a, b in
            Self.isNearDuplicate(a, b, rule: rule, store: store, keys: keys)
        }
        let alwaysLimit = Int((Double(budget) * options.alwaysShare).rounded(.down))
        for (fact, score) in always {
            packer.add(fact, reason: .always, score: score, partners: partners[fact.id] ?? [], limit: alwaysLimit)
        }
        let ordered =
            options.relevanceWeight < 1
            ? Self.maximalMarginalRelevance(hits, weight: options.relevanceWeight, store: store, skipping: packer)
            : hits
        for hit in ordered {
            packer.add(
                hit.fact, reason: .relevant, score: hit.relevance, partners: partners[hit.fact.id] ?? [], limit: budget)
        }
        for fact in recent {
            packer.add(fact, reason: .recent, score: relevance(fact), partners: partners[fact.id] ?? [], limit: budget)
        }
        let text = packer.render()
        return MemoryContext(
            text: text, tokens: options.estimator.count(text), budget: budget, items: packer.items,
            nothingRelevant: relevant.isEmpty)
    }

    private static func validate(budget: Int, options: ContextOptions) throws {
        guard budget >= 0 else { throw MnemoError.invalidInput(field: "budget", reason: "\(budget) is negative") }
        guard options.alwaysShare.isFinite, (0...1).contains(options.alwaysShare) else {
            throw MnemoError.invalidInput(
                field: "alwaysShare", reason: "\(options.alwaysShare) is not a share of the budget (0…1)")
        }
        guard options.relevanceWeight.isFinite, (0...1).contains(options.relevanceWeight) else {
            throw MnemoError.invalidInput(
                field: "relevanceWeight", reason: "\(options.relevanceWeight) is not a weight (0…1)")
        }
        guard options.minimumRelevance.isFinite else {
            throw MnemoError.invalidInput(
                field: "minimumRelevance", reason: "\(options.minimumRelevance) is not a number")
        }
        guard options.candidates >= 0, options.candidates <= 10_000 else {
            throw MnemoError.invalidInput(field: "candidates", reason: "\(options.candidates) is outside 0…10000")
        }
        if let window = options.recentWindow, !(window.isFinite && window >= 0) {
            throw MnemoError.invalidInput(field: "recentWindow", reason: "\(window) is not a duration")
        }
    }

    /// The active facts passing `filter` that each of `facts` conflicts with.
    private func conflictPartners(of facts: [Fact], filter: FactFilter) throws -> [Int64: [Fact]] {
        let ids = Array(Set(facts.map(\.id)))
        let links = try readNow { db in try ConflictTable.partners(db, of: ids) }
        let known = Dictionary(facts.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let missing = Set(links.values.joined()).subtracting(known.keys)
        let fetched = try self.facts(ids: Array(missing))
        let all = known.merging(fetched) { a, _ in a }
        // Expiry is measured against the clock, as the search and listings measure it.
        let clock = Date()
        return links.mapValues { partnerIDs in
            partnerIDs.compactMap { all[$0] }.filter {
                $0.isActive && filter.admits(statedAt: $0.createdAt) && ($0.expiresAt.map { $0 > clock } ?? true)
            }
        }
    }

    /// Whether `b` adds nothing to `a`: the near-duplicate rule's verdict on their contents (types
    /// aside), with their stored vectors' cosine, from the rule's merge ``NearDuplicateRule/threshold``
    /// up; without vectors, the same normalized content.
    ///
    /// Below that threshold the rule merges on matching values, which ingestion uses for short
    /// facts reworded around the same number. A context does not: a wrong merge at ingestion can
    /// be undone (`mnemo undo`), a fact wrongly left out of a context leaves an answer out unseen.
    static func isNearDuplicate(
        _ a: Fact, _ b: Fact, rule: NearDuplicateRule, store: VectorSnapshot?, keys: FactKeys
    ) -> Bool {
        if keys.key(of: a) == keys.key(of: b) { return true }
        guard let similarity = store?.storedCosine(a.id, b.id), similarity >= rule.threshold else {
            return false
        }
        return rule.verdict(keys.parsed(a), keys.parsed(b), type: a.type, similarity: similarity) == .duplicate
    }

    /// `hits` in the order maximal marginal relevance picks them (see
    /// ``context(for:budget:options:)``); without vectors, by relevance.
    static func maximalMarginalRelevance(
        _ hits: [SearchHit], weight: Double, store: VectorSnapshot?,
        skipping packer: ContextPacker
    ) -> [SearchHit] {
        let ranked = hits.sorted { ($0.relevance ?? 0, $1.fact.id) > ($1.relevance ?? 0, $0.fact.id) }
        guard let store, weight < 1 else { return ranked }
        var remaining = ranked
        var picked: [SearchHit] = []
        // Each remaining hit's highest cosine to the picked ones (and to the facts already in).
        var closeness = remaining.map { hit in
            packer.items.map { store.cosine(hit.fact.id, $0.fact.id) }.max() ?? 0
        }
        while !remaining.isEmpty {
            var best = 0
            var bestScore = -Double.infinity
            for (index, hit) in remaining.enumerated() {
                let score = weight * (hit.relevance ?? 0) - (1 - weight) * closeness[index]
                if score > bestScore { (best, bestScore) = (index, score) }
            }
            let chosen = remaining.remove(at: best)
            closeness.remove(at: best)
            picked.append(chosen)
            for (index, hit) in remaining.enumerated() {
                closeness[index] = max(closeness[index], store.cosine(hit.fact.id, chosen.fact.id))
            }
        }
        return picked
    }
}

extension VectorSnapshot {
    /// The cosine of two stored facts' unit vectors; 0 when either has none.
    func cosine(_ a: Int64, _ b: Int64) -> Double { storedCosine(a, b) ?? 0 }

    /// The cosine of two stored facts' unit vectors, or `nil` when either has none: a context
    /// compares every candidate with every item in, so this takes the vector kernels' path.
    func storedCosine(_ a: Int64, _ b: Int64) -> Double? {
        guard let left = vector(of: a), let right = vector(of: b), left.count == right.count, !left.isEmpty else {
            return nil
        }
        return left.withUnsafeBufferPointer { left in
            right.withUnsafeBufferPointer { right in
                Double(VectorMath.dot(left.baseAddress!, right.baseAddress!, count: left.count))
            }
        }
    }
}
