import Foundation

extension KnowledgeBase {
    /// The memory an assistant should see before it answers `message`, within `budget` tokens
    /// counted by ``ContextOptions/estimator``.
    ///
    /// Items come in four parts, each filling what the ones before left:
    /// 1. **Standing** (reason `always`): active facts of at least
    ///    ``ContextOptions/alwaysImportance`` that the search did not find (a hit takes its
    ///    place in part 2, where the importance prior puts it early), up to
    ///    ``ContextOptions/alwaysShare`` of the budget (a quarter by default): first those that
    ///    bear on the message (their cosine to the message or to the neighbourhood of its first
    ///    hits reaches ``ContextOptions/minimumBearing``), most bearing first; then those filed
    ///    under the topic of one of the first six hits in the order of part 2 that score at
    ///    least 0.3 of the best hit's score, most bearing first. The memory's filing says what the wording does not: a knee
    ///    condition sits beside the goal of training without knee pain, an allergy beside the
    ///    EpiPen a cooking question finds. What must never be forgotten for this message comes
    ///    first; what matters for other messages does not take its room. A goal that is
    ///    completed or abandoned is never a standing fact: it is no longer an aim (its line says
    ///    where it stands).
    /// 2. **Relevant**: the hits of a hybrid search for the message (text search without an
    ///    embedder), at most ``ContextOptions/candidates``, each with its
    ///    ``SearchHit/relevance`` as ``ContextItem/score``, while room is left; a hit that no
    ///    longer fits is skipped for the next. They come in rank order with three priors: a hit
    ///    at rank *r* (from 1) is placed as if at *r* / *w*, where *w* multiplies its
    ///    importance's weight (high 3, medium 1, low 0.6, none 0.4), its type's (an experience
    ///    0.4, what happened rather than what holds; any other type 1) and its topic's (3 when
    ///    its topic is that of one of the first three hits: what the message is about in this
    ///    memory's own filing). So a high-importance fact at rank 30 comes before a medium one at
    ///    rank 11, a preference filed beside the best hits at rank 20 before an unrelated fact at
    ///    rank 8, and among hits of equal weight the order is the search's.
    ///    When the message is about aims (a goal is among its first bearing hits: "plan my
    ///    spring"), an active goal due within ``ContextOptions/dueSoon`` counts twice as much
    ///    again, here and in the standing part; a completed or abandoned goal counts half.
    ///    A hit with relevance at least ``ContextOptions/minimumRelevance`` or cosine at least
    ///    ``ContextOptions/minimumEvidence`` shows that the memory knows something about the
    ///    message (``MemoryContext/nothingRelevant`` when none does); the weaker ones still
    ///    fill the room, since a weak hit is likelier to help than a fact picked for recency. With
    ///    ``ContextOptions/relevanceWeight`` below 1 they are picked by maximal marginal
    ///    relevance instead: each next fact is the one with the best
    ///    `w × relevance − (1 − w) × (its highest cosine to a fact already in)`.
    /// 3. **Other high-importance facts** (reason `always`), most recently stated first.
    /// 4. **Recent**: facts stated within ``ContextOptions/recentWindow`` before ``now``, newest
    ///    first, while room is left.
    ///
    /// Rank order within an importance is the measured choice: on LoCoMo, SciFact and the fixtures (`mnemo eval
    /// --context-budget`), taking the facts above the threshold first, or packing by relevance
    /// per token (a knapsack greedy, exact for calibrated probabilities), held less evidence
    /// than the plain ranking at most budgets: relevance knows only the cosine and the word
    /// share, the ranking also how a hit compares with the query's other hits, and a fact's
    /// length is evidence too (LoCoMo's evidence turns are longer than the others: 106 estimated
    /// tokens against 85).
    ///
    /// A fact that a chosen one conflicts with (``conflicts(limit:offset:)``) comes with it, the
    /// two lines next to each other, newer first, the newer marked as stated later; the pair goes
    /// in whole or not at all. No fact comes in that ingest would merge into one already in
    /// (``NearDuplicateRule``, whatever their types), and only active facts passing
    /// ``ContextOptions/filter`` appear.
    ///
    /// The rendered ``MemoryContext/text`` never costs more than `budget` by the estimator; a
    /// budget too small for any line gives an empty context.
    /// - Throws: ``MnemoError/invalidInput(field:reason:)`` for a budget outside
    ///   0…200,000 or an option out of range; what ``search(_:)`` throws.
    public func context(for message: String, budget: Int, options: ContextOptions = ContextOptions()) async throws
        -> MemoryContext
    {
        do {
            _ = try ContextBudget.checked(budget)
        } catch {
            throw MnemoError.invalidInput(field: "budget", reason: error.message)
        }
        try Self.validate(options)
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
        let bearing = MessageBearing(query: vector, hits: hits, store: store, options: options)
        let relevanceOfHit = Dictionary(hits.map { ($0.fact.id, $0.relevance ?? 0) }, uniquingKeysWith: max)
        func relevance(_ fact: Fact) -> Double? {
            if let known = relevanceOfHit[fact.id] { return known }
            guard let vector, let store, store.contains(fact.id) else { return nil }
            return Relevance.meaning(similarity: store.similarity(of: fact.id, to: vector))
        }

        var alwaysFilter = filter
        alwaysFilter.minimumImportance = max(filter.minimumImportance ?? .negligible, options.alwaysImportance)
        let important = try listedFacts(alwaysFilter, limit: 200).filter { !$0.isSettledGoal }
        let now = now
        let urgency = { (fact: Fact) -> Double in
            Self.urgency(of: fact, now: now, aboutAims: bearing.isAboutAims, options: options)
        }
        let weighed: [(fact: Fact, bearing: Double)] = important.map { ($0, bearing.bearing(of: $0) * urgency($0)) }
        let byBearing = { (a: (fact: Fact, bearing: Double), b: (fact: Fact, bearing: Double)) in
            a.bearing != b.bearing ? a.bearing > b.bearing : a.fact.id > b.fact.id
        }
        let inOrder = Self.inContextOrder(hits, urgency: urgency)
        // A hit takes its place among the hits (the importance prior puts an important one early);
        // the standing part brings what the search did not find.
        let hitIDs = Set(hits.map(\.fact.id))
        let unfound = weighed.filter { !hitIDs.contains($0.fact.id) }
        let leadTopics = Self.leadTopics(inOrder)
        let standing =
            unfound.filter { $0.bearing >= options.minimumBearing }.sorted(by: byBearing)
            + unfound.filter { $0.bearing < options.minimumBearing && leadTopics.contains($0.fact.topicPath) }
            .sorted(by: byBearing)
        let standingIDs = Set(standing.map { $0.fact.id })
        let others = important.filter { !standingIDs.contains($0.id) }.sorted {
            $0.createdAt != $1.createdAt ? $0.createdAt > $1.createdAt : $0.id > $1.id
        }
        var recentFilter = filter
        if let window = options.recentWindow {
            let start = now.addingTimeInterval(-window)
            recentFilter.since = max(filter.since ?? start, start)
        }
        let recent = try recentFacts(recentFilter, limit: max(options.candidates, 20))

        let partners = try conflictPartners(of: important + hits.map(\.fact) + recent, filter: filter)
        let rule = NearDuplicateRule()
        let keys = FactKeys()
        var packer = ContextPacker(budget: budget, estimator: options.estimator) { a, b in
            Self.isNearDuplicate(a, b, rule: rule, store: store, keys: keys)
        }
        let alwaysLimit = Int((Double(budget) * options.alwaysShare).rounded(.down))
        for (fact, _) in standing {
            packer.add(
                fact, reason: .always, score: relevance(fact), partners: partners[fact.id] ?? [], limit: alwaysLimit)
        }
        let ordered =
            options.relevanceWeight < 1
            ? Self.maximalMarginalRelevance(hits, weight: options.relevanceWeight, store: store, skipping: packer)
            : inOrder
        for hit in ordered {
            packer.add(
                hit.fact, reason: .relevant, score: hit.relevance, partners: partners[hit.fact.id] ?? [], limit: budget)
        }
        for fact in others {
            packer.add(fact, reason: .always, score: relevance(fact), partners: partners[fact.id] ?? [], limit: budget)
        }
        for fact in recent {
            packer.add(fact, reason: .recent, score: relevance(fact), partners: partners[fact.id] ?? [], limit: budget)
        }
        let text = packer.render()
        return MemoryContext(
            text: text, tokens: options.estimator.count(text), budget: budget, items: packer.items,
            nothingRelevant: !bearing.findsAnything)
    }

    /// How much more a hit of this importance counts than a medium one when hits are ordered:
    /// high 3, medium 1, low 0.6, none 0.4. An assistant's must-see facts lean to the
    /// important: on the judgement sets (`Fixtures/context`) 43 % and 28 % of them are of high
    /// importance against 15 % of the facts, 21 % and 24 % low or none against 47 % and 36 %.
    /// (High 2, low 0.75, none 0.5 held 0.02 less at 300 tokens; high 4 0.03 less.)
    static func importancePrior(_ importance: Importance) -> Double {
        switch importance {
        case .high: 3
        case .medium: 1
        case .low: 0.6
        case .negligible: 0.4
        }
    }

    /// How much a goal's standing changes its weight in a context: 2 for an active goal due
    /// within ``ContextOptions/dueSoon`` when the message is about aims, ½ for a completed or
    /// abandoned goal, else 1.
    static func urgency(of fact: Fact, now: Date, aboutAims: Bool, options: ContextOptions) -> Double {
        if fact.isSettledGoal { return 0.5 }
        guard aboutAims, fact.status == .active, let due = fact.targetDate else { return 1 }
        return due >= now && due.timeIntervalSince(now) <= options.dueSoon ? 2 : 1
    }

    /// How much more a hit of this type counts than a fact when hits are ordered: an experience
    /// 0.4, any other type 1. What happened ("Ran 10 km on Sunday") is seldom what an answer
    /// must respect; what holds (a condition, a preference, a rule, an aim) is. On the judgement
    /// sets experiences are 7 % and 10 % of the must-have facts against 22 % and 24 % of the
    /// facts, a ratio of 0.3 to 0.4. (0.5 held up to 0.014 less at 300 tokens, 0.3 the same.)
    static func typePrior(_ type: FactType) -> Double {
        type == .experience ? 0.4 : 1
    }

    /// How many of the first hits name the topics the message is about (see ``topicPrior``).
    static let topicAnchors = 3

    /// How many of the first hits in context order (``inContextOrder(_:urgency:)``) lend their
    /// topics to the standing part: an important fact the search did not find, filed under the
    /// topic of one of them, is a standing fact for the message, after those whose bearing
    /// reaches ``ContextOptions/minimumBearing``, however far its wording is from the message's.
    /// A memory files a condition beside what it concerns: "Has patellar tendinopathy in his left
    /// knee" (cosine 0.03 to a half-marathon training plan) under the injuries, where "Wants to
    /// get through a full marathon training block without knee pain" is among the first hits;
    /// the peanut allergy (cosine −0.02 to "What should I cook for dinner tonight?") under the
    /// medical facts, where the EpiPen carried since a reaction to a satay sauce is. Six: on the
    /// fixtures' judgement set (`Fixtures/context`) 4 or 5 held 0.03 less at 300 tokens and 0.04
    /// less at 800, 8 0.01 less at 300 and 0.01 more at 800.
    static let standingAnchors = 6

    /// The share of the best hit's score an anchor of the standing part needs (see
    /// ``standingAnchors``): in a small memory every fact is among the first hits, and a fact
    /// that has nothing to do with the message says nothing about what it is about. 0.3: on the
    /// judgement sets 0.2 and 0.3 kept every fact the anchors bring, 0.4 (the search's
    /// ``SearchQuery/defaultRelativeScoreFloor``) lost 0.01.
    static let anchorScoreShare = 0.3

    /// The topics of the first ``standingAnchors`` hits in context order that score at least
    /// ``anchorScoreShare`` of the best hit's score.
    static func leadTopics(_ ordered: [SearchHit]) -> Set<String> {
        let best = ordered.map(\.score).max() ?? 0
        return Set(
            ordered.prefix(standingAnchors).filter { $0.score >= anchorScoreShare * best }.map(\.fact.topicPath))
    }

    /// How much more a hit counts when its topic is that of one of the first ``topicAnchors``
    /// hits: 3, as much as high importance. A memory files what belongs together under one
    /// topic, so the topic of the best hits says what the message is about better than any one
    /// fact's wording: "Always travels with just a carry-on" is a weak hit for "plan a weekend
    /// trip" (cosine 0.26) but sits under the same topic as the trip the search ranks first.
    /// With the prior the fixtures' set held 0.04 more at 300 tokens and 0.05 more at 800
    /// (2 anchors or 5, weight 2 or 3: within 0.02 of each other); the second memory's the same.
    /// A memory whose facts share one topic (a BEIR corpus) keeps the search's order.
    static let topicPrior = 3.0

    /// `hits` reordered by the importance, type and topic priors and `urgency` (see
    /// ``context(for:budget:options:)``); the search's order among equal keys.
    static func inContextOrder(_ hits: [SearchHit], urgency: (Fact) -> Double) -> [SearchHit] {
        let anchorTopics = Set(hits.prefix(topicAnchors).map(\.fact.topicPath))
        return hits.enumerated().map { offset, hit -> (Double, Int) in
            let fact = hit.fact
            let topic: Double = anchorTopics.contains(fact.topicPath) ? topicPrior : 1
            let weight: Double = importancePrior(fact.importance) * typePrior(fact.type) * urgency(fact) * topic
            return (Double(offset + 1) / weight, offset)
        }
        .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        .map { hits[$0.1] }
    }

    private static func validate(_ options: ContextOptions) throws {
        guard options.alwaysShare.isFinite, (0...1).contains(options.alwaysShare) else {
            throw MnemoError.invalidInput(
                field: "alwaysShare", reason: "\(options.alwaysShare) is not a share of the budget (0…1)")
        }
        guard options.relevanceWeight.isFinite, (0...1).contains(options.relevanceWeight) else {
            throw MnemoError.invalidInput(
                field: "relevanceWeight", reason: "\(options.relevanceWeight) is not a weight (0…1)")
        }
        guard options.minimumBearing.isFinite else {
            throw MnemoError.invalidInput(field: "minimumBearing", reason: "\(options.minimumBearing) is not a number")
        }
        guard options.neighbourhood >= 0, options.neighbourhood <= 100 else {
            throw MnemoError.invalidInput(field: "neighbourhood", reason: "\(options.neighbourhood) is outside 0…100")
        }
        guard options.minimumEvidence.isFinite else {
            throw MnemoError.invalidInput(
                field: "minimumEvidence", reason: "\(options.minimumEvidence) is not a number")
        }
        guard options.minimumRelevance.isFinite else {
            throw MnemoError.invalidInput(
                field: "minimumRelevance", reason: "\(options.minimumRelevance) is not a number")
        }
        guard options.dueSoon.isFinite, options.dueSoon >= 0 else {
            throw MnemoError.invalidInput(field: "dueSoon", reason: "\(options.dueSoon) is not a duration")
        }
        guard options.candidates >= 0, options.candidates <= 10_000 else {
            throw MnemoError.invalidInput(field: "candidates", reason: "\(options.candidates) is outside 0…10000")
        }
        if let window = options.recentWindow, !(window.isFinite && window >= 0) {
            throw MnemoError.invalidInput(field: "recentWindow", reason: "\(window) is not a duration")
        }
    }

    // The two reads of `context(for:budget:options:)`, never inlined into it: there they
    // crashed Swift 6.3.1's optimizer (CopyPropagation).

    /// The first `limit` facts that pass `filter`, in the listing's order.
    @inline(never)
    private func listedFacts(_ filter: FactFilter, limit: Int) throws -> [Fact] {
        let namespace = namespace
        return try readNow { db in
            try FactTable.list(db, namespace: namespace, filter: filter, limit: limit, offset: 0)
        }
    }

    /// The newest facts that pass `filter`, at most `limit`.
    @inline(never)
    private func recentFacts(_ filter: FactFilter, limit: Int) throws -> [Fact] {
        let namespace = namespace
        return try readNow { db in try FactTable.recent(db, namespace: namespace, filter: filter, limit: limit) }
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

    /// Whether `b` adds nothing to `a`: ingest's verdict (``NearDuplicateRule``) on their contents,
    /// types aside, with their stored vectors' cosine; without vectors, the same normalized
    /// content. A context is as strict as ingest: two facts ingest would have merged never both
    /// take room (records headed by a date, as LoCoMo's chat turns are, the rule already reads
    /// without the date they share).
    static func isNearDuplicate(
        _ a: Fact, _ b: Fact, rule: NearDuplicateRule, store: VectorSnapshot?, keys: FactKeys
    ) -> Bool {
        if keys.key(of: a) == keys.key(of: b) { return true }
        guard let similarity = store?.storedCosine(a.id, b.id), similarity >= rule.minimumSimilarity else {
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
