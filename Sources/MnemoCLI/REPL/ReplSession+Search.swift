import Mnemo

extension ReplSession {
    /// Searches for a line's words with its inline filters; a line of filters alone lists the
    /// facts that pass them.
    func search(_ line: String) async throws {
        let inline = try InlineQuery(parsing: line)
        if let topicPath = inline.topicPath { try await requireTopic(topicPath) }
        let searchMode = inline.mode ?? mode
        let query = inline.searchQuery(mode: searchMode, limit: limit, now: kb.now)
        let clock = ContinuousClock()
        let start = clock.now
        guard inline.text.contains(where: { $0.isLetter || $0.isNumber }) || !inline.hasFilters else {
            let facts = try await kb.facts(matching: query.filter, limit: query.limit)
            let elapsed = start.duration(to: clock.now)
            lastSearch = nil
            if json { return try Output.json(facts.map(FactJSON.init)) }
            if !facts.isEmpty { print(ResultFormatter(style: style).facts(facts)) }
            print(
                style.dim(
                    ResultFormatter.footer(
                        count: facts.count, noun: "fact", elapsed: elapsed, details: inline.filterSummary)))
            return
        }
        let hits = try await kb.search(query)
        let elapsed = start.duration(to: clock.now)
        lastSearch = (query, searchMode, hits)
        if json {
            return try Output.json(SearchResultsJSON(query: query.text, mode: searchMode, hits: hits))
        }
        if !hits.isEmpty {
            print(ResultFormatter(style: style, highlighter: QueryHighlighter(query: query.text)).hits(hits))
        }
        let details = [searchMode.rawValue] + inline.filterSummary
        print(style.dim(ResultFormatter.footer(count: hits.count, elapsed: elapsed, details: details)))
    }

    /// Fails with a hint when no topic is at `path`, rather than finding nothing in silence.
    func requireTopic(_ path: TopicPath) async throws {
        guard try await kb.topic(at: path) == nil else { return }
        if let guess = SpellingHint.suggestion(for: path.description, among: topicPaths) {
            throw CLIError("no topic \"\(path)\" — did you mean \"\(guess)\"?")
        }
        throw CLIError("no topic \"\(path)\"; :topics lists them")
    }
}
