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
        let kb = try await knowledgeBase(context)
        let query = Self.filledFields(request)
        let offset = try Self.offset(query)
        let parameters = try query.parameters(Self.searchFields, maximumLimit: Self.pageSize)
        let text = query.get("q")?.trimmingBlanks ?? ""
        var facts: [Fact]
        var reasons: [Int64: HTML] = [:]
        var mode: SearchMode?
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
        var pageQuery = PageQuery()
        pageQuery.append("q", text)
        for field in Self.searchFields {
            for value in query.all(field.rawValue) { pageQuery.append(field.rawValue, value) }
        }
        let summary: HTML =
            text.isEmpty
            ? "<p class=\"meta\">Facts that pass the filters, most important and newest first.</p>"
            : "<p class=\"meta\">Results for “\(text)” (\(mode?.rawValue ?? "hybrid") search).</p>"
        let body: HTML = """
            \(searchForm(query))
            <section aria-labelledby="results"><h2 id="results">Results</h2>
            \(summary)
            \(factTable(Array(facts.prefix(Self.pageSize)), context: context, reasons: reasons))
            \(PageRenderer.pager(path: "/ui/search", query: pageQuery, offset: offset, limit: Self.pageSize, hasMore: facts.count > Self.pageSize))
            </section>
            """
        return renderer.page("Search", current: "/ui/search", context: context, body)
    }

    private func searchForm(_ query: QueryFields) -> HTML {
        func select(_ name: String, _ label: String, _ values: [String], any: Bool = true) -> HTML {
            """
            <label for="f-\(name)">\(label)</label>\
            <select id="f-\(name)" name="\(name)">\(Self.options((any ? [""] : []) + values, selected: query.get(name) ?? ""))</select>
            """
        }
        func field(_ name: String, _ label: String, _ hint: String) -> HTML {
            """
            <label for="f-\(name)">\(label)</label>\
            <input id="f-\(name)" name="\(name)" value="\(query.get(name) ?? "")" placeholder="\(hint)">
            """
        }
        let importances = Importance.allCases.map(\.rawValue) + [">=medium", ">=low"]
        return """
            <search><form method="get" action="/ui/search" role="search">
            <label for="q">Search the memory</label>
            <input id="q" name="q" type="search" value="\(query.get("q") ?? "")" autofocus>
            <button type="submit">Search</button>
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
