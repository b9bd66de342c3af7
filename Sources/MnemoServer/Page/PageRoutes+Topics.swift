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
            <span class="count">\(node.factCount) facts, \(node.subtreeFactCount) with subtopics</span>\(children)</li>
            """
    }

    /// `GET /ui/topics/{id}?offset=&active=`: a topic's subtopics and its facts (its subtopics'
    /// too), a page at a time, with the form that merges it into another topic.
    @Sendable func topic(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let kb = try await knowledgeBase(context)
        let text = context.parameters.get("topic_id") ?? ""
        guard let id = Int64(text), let node = try await kb.topicTree().node(id: id) else {
            throw APIError.notFound("no topic with id \(text)")
        }
        let query = QueryFields(request)
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
                "<li><a href=\"/ui/topics/\(child.topic.id)\">\(child.topic.name)</a> <span class=\"count\">\(child.subtreeFactCount) facts</span></li>"
            })</ul></section>
            """
        var pageQuery = PageQuery()
        pageQuery.append("active", query.get("active"))
        let merge: HTML =
            renderer.mode.allowsChanges
            ? """
            <section aria-labelledby="merge"><h2 id="merge">Merge into another topic</h2>
            <form method="get" action="/ui/merge"><input type="hidden" name="source" value="\(node.topic.path)">
            <label for="merge-target">Target topic path</label>
            <input id="merge-target" name="into" required placeholder="Work/Projects">
            <button type="submit">Preview the merge</button></form></section>
            """ : ""
        let body: HTML = """
            <p class="meta">\(node.topic.path) · \(node.subtreeFactCount) facts with its subtopics · \
            <a href="/ui/search?topic=\(PageQuery.encode(node.topic.path))">search in this topic</a></p>
            \(subtopics)
            <section aria-labelledby="facts"><h2 id="facts">Facts</h2>
            <form method="get"><label for="active">Show</label>
            <select id="active" name="active">\(Self.options(["active", "inactive", "all"], selected: query.get("active") ?? "active"))</select>
            <button type="submit">Show</button></form>
            \(factTable(Array(facts.prefix(Self.pageSize)), context: context))
            \(PageRenderer.pager(path: "/ui/topics/\(id)", query: pageQuery, offset: offset, limit: Self.pageSize, hasMore: facts.count > Self.pageSize))
            </section>
            \(merge)
            """
        return renderer.page(node.topic.name, current: "/ui", context: context, body)
    }

    /// `<option>`s for `values`, `selected` marked.
    static func options(_ values: [String], selected: String?) -> HTML {
        values.map { value -> HTML in
            let marker: HTML = value == selected ? " selected" : ""
            return "<option value=\"\(value)\"\(marker)>\(value.isEmpty ? "any" : value)</option>"
        }.joined
    }

    /// Facts as a table whose rows can be selected for a bulk action (delete, erase, export).
    func factTable(_ facts: [Fact], context: MnemoRequestContext, reasons: [Int64: HTML] = [:]) -> HTML {
        guard !facts.isEmpty else { return "<p>No facts.</p>" }
        let rows = facts.map { fact -> HTML in
            let box: HTML =
                "<td><input type=\"checkbox\" name=\"id\" value=\"\(fact.id)\" form=\"bulk\" aria-label=\"Select fact \(fact.id)\"></td>"
            let rowClass: HTML = fact.isActive ? "" : " class=\"inactive\""
            return """
                <tr\(rowClass)>\(box)<td><a href="/ui/facts/\(fact.id)">\(fact.content)</a>\(reasons[fact.id])</td>\
                <td>\(fact.type.rawValue)</td><td>\(fact.importance.rawValue)</td><td>\(fact.topicPath)</td>\
                <td>\(PageRenderer.date(fact.createdAt))</td></tr>
                """
        }
        let deleteButtons: HTML =
            renderer.mode.allowsChanges
            ? """
            <button type="submit" name="action" value="delete">Delete selected</button>
            <label for="bulk-confirm">To erase for good, type <kbd>erase</kbd></label>
            <input id="bulk-confirm" name="confirm" autocomplete="off" size="6">
            <button type="submit" name="action" value="erase" class="danger">Erase selected</button>
            """ : ""
        return """
            <form method="post" action="/ui/bulk" id="bulk">\(renderer.csrf(context))
            <label hidden><input type="checkbox" data-select-all> Select all</label>
            <button type="submit" formaction="/ui/export">Export selected</button>
            \(deleteButtons)
            </form>
            <table><caption class="meta">\(facts.count) shown</caption>
            <thead><tr><th scope="col">Select</th><th scope="col">Content</th><th scope="col">Type</th>\
            <th scope="col">Importance</th><th scope="col">Topic</th><th scope="col">Stated</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
    }
}
