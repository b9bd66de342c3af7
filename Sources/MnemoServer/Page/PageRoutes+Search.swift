import Foundation
import Hummingbird
import Mnemo

extension PageRoutes {
    /// The filters of the search form, in the vocabulary every front door shares.
    static let searchFields: [FilterField] = [
        .mode, .type, .importance, .status, .topic, .active, .since, .until, .minSimilarity,
    ]

    /// `GET /ui/search?q=&mode=&type=&importance=&topic=&active=&since=&until=&offset=`: the
    /// search form and its results, each a link to its fact with why it ranked there; without
    /// `q`, the facts that pass the filters, most important and newest first.
    @Sendable func search(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        try await searchPage(Self.filledFields(request), context: context)
    }

    /// The search view for `query`; `bulk`, a refused bulk form sent from it. A filter the search
    /// refuses (an unknown type, a bad date) shows the form again with the error, as 400.
    func searchPage(_ query: QueryFields, context: MnemoRequestContext, bulk: FormProblem? = nil) async throws
        -> Response
    {
        let kb = try await knowledgeBase(context)
        let text = query.get("q")?.trimmingBlanks ?? ""
        var facts: [Fact] = []
        var reasons: [Int64: HTML] = [:]
        var mode: SearchMode?
        let offset: Int
        do {
            offset = try Self.offset(query)
            let parameters = try query.parameters(Self.searchFields, maximumLimit: Self.pageSize)
            if text.isEmpty {
                facts = try await kb.facts(
                    matching: parameters.filter(now: kb.now), limit: Self.pageSize + 1, offset: offset)
            } else {
                var search = parameters.searchQuery(
                    text, defaultMode: .hybrid, defaultLimit: Self.pageSize + 1, now: kb.now)
                search.offset = offset
                mode = search.mode ?? .hybrid
                let hits = try await kb.search(search)
                facts = hits.map(\.fact)
                for hit in hits { reasons[hit.fact.id] = Self.reasons(hit, mode: mode ?? .hybrid) }
            }
        } catch let error where APIError.from(error).status == .badRequest {
            let body: HTML = """
                <p class="error" role="alert" id="search-error">\(APIError.from(error).message)</p>
                \(searchForm(query, problem: "search-error"))
                """
            return renderer.page("Search", current: "/ui/search", context: context, status: .badRequest, body)
        }
        var pageQuery = PageQuery()
        pageQuery.append("q", text)
        for field in Self.searchFields {
            for value in query.all(field.rawValue) { pageQuery.append(field.rawValue, value) }
        }
        var back = pageQuery
        if offset > 0 { back.append("offset", String(offset)) }
        let shown = min(facts.count, Self.pageSize)
        let summary: HTML =
            text.isEmpty
            ? "<p class=\"meta\">Facts that pass the filters, most important and newest first.</p>"
            : "<p class=\"meta\">\(shown == 0 ? "Nothing" : PageRenderer.count(shown, "result")) for “\(text)” (\(mode?.rawValue ?? "hybrid") search).</p>"
        let body: HTML = """
            \(searchForm(query, problem: nil))
            <section aria-labelledby="results" id="results-section"><h2 id="results">Results</h2>
            \(summary)
            \(factTable(Array(facts.prefix(Self.pageSize)), context: context, reasons: reasons, back: "/ui/search" + back.text, problem: bulk))
            \(PageRenderer.pager(path: "/ui/search", query: pageQuery, offset: offset, limit: Self.pageSize, hasMore: facts.count > Self.pageSize))
            </section>
            """
        return renderer.page(
            "Search", current: "/ui/search", context: context, status: bulk == nil ? .ok : .unprocessableContent, body)
    }

    private func searchForm(_ query: QueryFields, problem: String?) -> HTML {
        let described: HTML = problem.map { " aria-describedby=\"\($0)\"" } ?? ""
        func select(_ name: String, _ label: String, _ values: [String], any: Bool = true) -> HTML {
            """
            <span class="field"><label for="f-\(name)">\(label)</label>\
            <select id="f-\(name)" name="\(name)">\(Self.options((any ? [""] : []) + values, selected: query.get(name) ?? ""))</select></span>
            """
        }
        func field(_ name: String, _ label: String, _ hint: String) -> HTML {
            """
            <span class="field"><label for="f-\(name)">\(label)</label>\
            <input id="f-\(name)" name="\(name)" value="\(query.get(name) ?? "")" placeholder="\(hint)" size="12"></span>
            """
        }
        let importances = Importance.allCases.map(\.rawValue) + [">=medium", ">=low"]
        return """
            <search id="search-form"><form method="get" action="/ui/search">
            <div class="query"><label for="q">Search the memory</label>
            <input id="q" name="q" type="search" value="\(query.get("q") ?? "")" autofocus\(described)>
            <button type="submit">Search</button></div>
            <fieldset><legend>Filters</legend>
            \(select("mode", "Mode", SearchMode.allCases.map(\.rawValue)))
            \(select("type", "Type", FactType.allCases.map(\.rawValue)))
            \(select("importance", "Importance", importances))
            \(select("active", "State", ["active", "inactive", "all"], any: false))
            \(field("topic", "Topic", "Work/Projects"))
            \(field("since", "Since", "2025-05 or 7d"))
            \(field("until", "Until", "2025-06-01"))
            </fieldset></form></search>
            """
    }

    /// Why a hit ranked where it did, from its scores: the words it matched (the snippet's
    /// marks), its BM25 score, its cosine similarity, and its calibrated relevance.
    static func reasons(_ hit: SearchHit, mode: SearchMode) -> HTML {
        var parts: [HTML] = ["score \(number(hit.score))"]
        if let snippet = hit.snippet, snippet.contains("[") { parts.append("matched: \(marked(snippet))") }
        if let bm25 = hit.textScore { parts.append("BM25 \(number(bm25))") }
        if mode != .text {
            parts.append(hit.similarity.map { "cosine \(number($0))" } ?? "no vector")
        }
        if mode == .hybrid, hit.textScore == nil { parts.append("found by meaning alone") }
        if let relevance = hit.relevance { parts.append("relevance \(number(relevance))") }
        if !hit.conflictsWith.isEmpty {
            parts.append("in conflict with \(hit.conflictsWith.map { "#\($0)" }.joined(separator: ", "))")
        }
        let joined = parts.enumerated().map { $0.offset == 0 ? $0.element : "; \($0.element)" }
        return "<p class=\"reasons\">\(joined)</p>"
    }

    /// The snippet with its `[`…`]` marks as `<mark>`, every piece escaped.
    private static func marked(_ snippet: String) -> HTML {
        var pieces: [HTML] = []
        var isMarked = false
        for piece in snippet.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "[" || $0 == "]" }) {
            pieces.append(isMarked ? "<mark>\(piece)</mark>" : "\(piece)")
            isMarked.toggle()
        }
        return pieces.joined
    }

    /// Three decimals at most.
    static func number(_ value: Double) -> String { String(format: "%.3f", value) }
}
