import Foundation
import Hummingbird
import Mnemo

extension PageRoutes {
    /// `GET /ui`: the topic tree with fact counts (a topic's own, and with its subtopics').
    @Sendable func topicTree(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let kb = try await knowledgeBase(context)
        let tree = try await kb.topicTree()
        let body: HTML =
            tree.isEmpty
            ? "<p>Nothing is remembered yet.</p>"
            : "<ul class=\"tree\" aria-label=\"Topic tree\">\(tree.map(Self.treeItem))</ul>"
        return renderer.page("Topics", current: "/ui", context: context, body)
    }

    private static func treeItem(_ node: TopicNode) -> HTML {
        let children: HTML =
            node.children.isEmpty ? "" : "<ul class=\"tree\">\(node.children.map(treeItem))</ul>"
        return """
            <li><a href="/ui/topics/\(node.topic.id)">\(node.topic.name)</a> \
            <span class="count">\(countText(node))</span>\(children)</li>
            """
    }

    /// `3 facts`, or `1 fact, 4 with subtopics` when its subtopics hold some.
    private static func countText(_ node: TopicNode) -> String {
        let own = PageRenderer.count(node.factCount, "fact")
        return node.subtreeFactCount == node.factCount ? own : "\(own), \(node.subtreeFactCount) with subtopics"
    }

    /// `GET /ui/topics/{id}?offset=&active=`: a topic's subtopics and its facts (its subtopics'
    /// too), a page at a time, with the form that merges it into another topic.
    @Sendable func topic(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let text = context.parameters.get("topic_id") ?? ""
        guard let id = Int64(text) else { throw APIError.notFound("no topic with id \(text)") }
        return try await topicPage(id: id, query: QueryFields(request), context: context)
    }

    /// The topic view; `bulk`, a refused bulk form sent from it.
    func topicPage(id: Int64, query: QueryFields, context: MnemoRequestContext, bulk: FormProblem? = nil)
        async throws -> Response
    {
        let kb = try await knowledgeBase(context)
        guard let node = try await kb.topicTree().node(id: id) else {
            throw APIError.notFound("no topic with id \(id)")
        }
        let offset = try Self.offset(query)
        let parameters = try query.parameters([.active], maximumLimit: Self.pageSize)
        var filter = parameters.filter(now: kb.now)
        filter.topicPath = try TopicPath(node.topic.path)
        let facts = try await kb.facts(matching: filter, limit: Self.pageSize + 1, offset: offset)
        let subtopics: HTML =
            node.children.isEmpty
            ? ""
            : """
            <section aria-labelledby="subtopics"><h2 id="subtopics">Subtopics</h2><ul>\(node.children.map { child -> HTML in
                "<li><a href=\"/ui/topics/\(child.topic.id)\">\(child.topic.name)</a> <span class=\"count\">\(PageRenderer.count(child.subtreeFactCount, "fact"))</span></li>"
            })</ul></section>
            """
        var pageQuery = PageQuery()
        pageQuery.append("active", query.get("active"))
        var back = pageQuery
        if offset > 0 { back.append("offset", String(offset)) }
        let merge: HTML =
            renderer.mode.allowsChanges
            ? """
            <section aria-labelledby="merge"><h2 id="merge">Merge into another topic</h2>
            <form method="get" action="/ui/merge"><input type="hidden" name="source" value="\(node.topic.path)">
            <span class="field"><label for="merge-target">Target topic path</label>
            <input id="merge-target" name="into" required placeholder="Work/Projects"></span>
            <button type="submit">Preview the merge</button></form></section>
            """ : ""
        let body: HTML = """
            <p class="meta">\(node.topic.path) · \(PageRenderer.count(node.subtreeFactCount, "fact")) with its subtopics · \
            <a href="/ui/search?topic=\(PageQuery.encode(node.topic.path))">search in this topic</a></p>
            \(subtopics)
            <section aria-labelledby="facts"><h2 id="facts">Facts</h2>
            <form method="get"><span class="field"><label for="active">Show</label>
            <select id="active" name="active">\(Self.options(["active", "inactive", "all"], selected: query.get("active") ?? "active"))</select>
            </span><button type="submit">Show</button></form>
            \(factTable(Array(facts.prefix(Self.pageSize)), context: context, back: "/ui/topics/\(id)" + back.text, problem: bulk))
            \(PageRenderer.pager(path: "/ui/topics/\(id)", query: pageQuery, offset: offset, limit: Self.pageSize, hasMore: facts.count > Self.pageSize))
            </section>
            \(merge)
            """
        return renderer.page(
            node.topic.name, current: "/ui", context: context, status: bulk == nil ? .ok : .unprocessableContent, body)
    }

    /// `<option>`s for `values`, `selected` marked.
    static func options(_ values: [String], selected: String?) -> HTML {
        values.map { value -> HTML in
            let marker: HTML = value == selected ? " selected" : ""
            return "<option value=\"\(value)\"\(marker)>\(value.isEmpty ? "any" : value)</option>"
        }.joined
    }

    /// Facts as a table whose rows can be selected for a bulk action (delete, erase, export).
    /// `back` is the view's address, where a refused bulk form comes back to; `problem`, that
    /// form with its ticks and its error. On a phone, each row is a block of labelled lines.
    func factTable(
        _ facts: [Fact], context: MnemoRequestContext, reasons: [Int64: HTML] = [:], back: String,
        problem: FormProblem? = nil
    ) -> HTML {
        guard !facts.isEmpty else { return "<p>No facts.</p>" }
        let ticked = Set(problem?.values.all("id") ?? [])
        let rows = facts.map { fact -> HTML in
            let check: HTML = ticked.contains(String(fact.id)) ? " checked" : ""
            let box: HTML = """
                <td class="select"><input type="checkbox" name="id" value="\(fact.id)" form="bulk"\(check) \
                aria-label="Select \(PageRenderer.excerpt(fact.content))"></td>
                """
            let rowClass: HTML = fact.isActive ? "" : " class=\"inactive\""
            return """
                <tr\(rowClass) data-key="fact-\(fact.id)">\(box)<td data-label="Content"><a href="/ui/facts/\(fact.id)">\(fact.content)</a>\(reasons[fact.id])</td>\
                <td data-label="Type"><span class="badge">\(fact.type.rawValue)</span></td>\
                <td data-label="Importance"><span class="badge importance-\(fact.importance.rawValue)">\(fact.importance.rawValue)</span></td>\
                <td data-label="Topic">\(fact.topicPath)</td>\
                <td data-label="Stated">\(PageRenderer.date(fact.createdAt))</td></tr>
                """
        }
        let idError = PageRenderer.fieldError(problem, "id", id: "bulk-ids")
        let confirm = PageRenderer.fieldError(problem, "confirm", id: "bulk-confirm")
        let deleteButtons: HTML =
            renderer.mode.allowsChanges
            ? """
            <button type="submit" name="action" value="delete">Delete selected</button>
            <span class="field"><label for="bulk-confirm">To erase for good, type <kbd>erase</kbd></label>
            <input id="bulk-confirm" name="confirm" autocomplete="off" size="6" value="\(problem?.values.get("confirm") ?? "")"\(confirm.attributes)></span>
            <button type="submit" name="action" value="erase" class="danger">Erase selected</button>
            """ : ""
        return """
            <form method="post" action="/ui/bulk" id="bulk" class="bulk">\(renderer.csrf(context))
            <input type="hidden" name="back" value="\(back)">
            <label class="select-all" hidden><input type="checkbox" data-select-all> Select all</label>
            <button type="submit" formaction="/ui/export">Export selected</button>
            \(deleteButtons)\(idError.message)\(confirm.message)
            </form>
            <table class="rows"><caption class="meta">\(PageRenderer.count(facts.count, "fact")) shown</caption>
            <thead><tr><th scope="col"><span class="vh">Select</span></th><th scope="col">Content</th><th scope="col">Type</th>\
            <th scope="col">Importance</th><th scope="col">Topic</th><th scope="col">Stated</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
    }
}
