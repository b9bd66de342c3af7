import Foundation
import HTTPTypes
import Hummingbird
import Mnemo

extension PageRoutes {
    /// `GET /ui/conflicts?offset=`: the conflicts to settle, a page at a time.
    @Sendable func conflicts(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let kb = try await knowledgeBase(context)
        let offset = try Self.offset(QueryFields(request))
        let conflicts = try await kb.conflicts(limit: Self.pageSize + 1, offset: offset)
        let body: HTML = """
            <p>Two facts that are close in meaning but differ in a value, a name or a direction. Keep the one \
            that holds (the other is deactivated), or keep both.</p>
            \(conflicts.isEmpty ? "<p>No conflicts.</p>" : conflictList(Array(conflicts.prefix(Self.pageSize)), context: context))
            \(PageRenderer.pager(path: "/ui/conflicts", query: PageQuery(), offset: offset, limit: Self.pageSize, hasMore: conflicts.count > Self.pageSize))
            """
        return renderer.page("Conflicts", current: "/ui/conflicts", context: context, body)
    }

    /// `POST /ui/conflicts/{id}/resolve` with `keep=newer|older|both`.
    @Sendable func resolveConflict(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let kb = try await knowledgeBase(context)
        let text = context.parameters.get("conflict_id") ?? ""
        let keep = try await form(request, context).get("keep")
        guard let id = Int64(text) else { throw MnemoError.notFound(.conflict(0)) }
        guard ["newer", "older", "both"].contains(keep ?? "") else {
            throw APIError.badRequest("invalid_keep", "keep takes newer, older or both, not \"\(keep ?? "")\"")
        }
        guard let conflict = try await kb.conflicts(limit: Self.conflictScan).first(where: { $0.id == id }) else {
            throw MnemoError.notFound(.conflict(id))
        }
        func name(_ fact: Fact) -> String { "#\(fact.id) \(PageRenderer.excerpt(fact.content, limit: 60))" }
        if keep == "both" {
            try await kb.dismissConflict(id: id)
            await say(
                "Kept both \(name(conflict.older)) and \(name(conflict.newer)): the conflict is dismissed (undoable).",
                context)
        } else {
            let (kept, dropped) = keep == "newer" ? (conflict.newer, conflict.older) : (conflict.older, conflict.newer)
            try await kb.deactivateFact(id: dropped.id)
            await say(
                "Kept \(name(kept)). \(name(dropped)) is deactivated: search leaves it out; its page can reactivate it.",
                context)
        }
        return PageRenderer.redirect(to: "/ui/conflicts")
    }

    /// `GET /ui/stats`
    @Sendable func stats(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let stats = try await knowledgeBase(context).stats()
        func rows(_ counts: [String: Int]) -> HTML {
            counts.sorted { $0.key < $1.key }.map {
                "<tr><th scope=\"row\">\($0.key)</th><td>\($0.value)</td></tr>" as HTML
            }
            .joined
        }
        let body: HTML = """
            <dl><dt>Facts</dt><dd id="stat-facts">\(stats.facts)</dd><dt>Active facts</dt><dd id="stat-active">\(stats.activeFacts)</dd>\
            <dt>Topics</dt><dd id="stat-topics">\(stats.topics)</dd></dl>
            <table class="counts"><caption>Active facts by type</caption><tbody>\(rows(stats.byType.mapKeys(\.rawValue)))</tbody></table>
            <table class="counts"><caption>Active facts by importance</caption><tbody>\(rows(stats.byImportance.mapKeys(\.rawValue)))</tbody></table>
            """
        return renderer.page("Stats", current: "/ui/stats", context: context, body)
    }

    /// `GET /ui/undo`: the operation log, newest first, each undoable operation with its button.
    @Sendable func undoList(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let kb = try await knowledgeBase(context)
        let query = QueryFields(request)
        let operations = try await kb.operations(limit: Self.pageSize)
        var flash: HTML = ""
        if let deleted = query.get("deleted"), let latest = operations.first, latest.kind == .deleteFact {
            flash = """
                <div class="notice" role="status">Deleted fact #\(deleted). \
                \(renderer.button("Undo", action: "/ui/undo", context: context, fields: [("operation", String(latest.id))], about: "the deletion of fact #\(deleted)"))</div>
                """
        } else if let undone = query.get("undone") {
            flash = "<p class=\"notice\" role=\"status\">Undid operation #\(undone).</p>"
        }
        let rows = operations.map { operation -> HTML in
            let state: HTML =
                operation.undoneBy.map { "undone by #\($0)" }
                ?? renderer.button(
                    "Undo", action: "/ui/undo", context: context, fields: [("operation", String(operation.id))],
                    about: "operation #\(operation.id), \(operation.kind.rawValue): \(operation.summary)")
            return """
                <tr data-key="operation-\(operation.id)"><td data-label="Id">#\(operation.id)</td>\
                <td data-label="When">\(PageRenderer.date(operation.date))</td><td data-label="Kind">\(operation.kind.rawValue)</td>\
                <td data-label="What">\(operation.summary)</td><td data-label="Undo">\(state)</td></tr>
                """
        }
        let body: HTML = """
            \(flash)
            \(operations.isEmpty ? "<p>Nothing to undo.</p>" : """
            <table class="rows"><caption class="meta">The last \(Self.pageSize) operations, newest first</caption>
            <thead><tr><th scope="col">Id</th><th scope="col">When</th><th scope="col">Kind</th><th scope="col">What</th>\
            <th scope="col">Undo</th></tr></thead><tbody>\(rows)</tbody></table>
            """ as HTML)
            """
        return renderer.page("Undo", current: "/ui/undo", context: context, body)
    }

    /// `POST /ui/undo` with `operation=ID`: undoes it through the operation log.
    @Sendable func undo(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let text = try await form(request, context).get("operation") ?? ""
        guard let id = Int64(text) else { throw MnemoError.notFound(.operation(0)) }
        try await knowledgeBase(context).undo(id)
        return PageRenderer.redirect(to: "/ui/undo?undone=\(id)")
    }

    /// `GET /ui/merge?source=A&source=B&into=C`: what merging would do (the dry run): the facts
    /// that move and the duplicates that merge, with the button that does it and a way back.
    @Sendable func mergePreview(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let query = Self.filledFields(request)
        let kb = try await knowledgeBase(context)
        let sourcePaths = query.all("source").filter { !$0.isEmpty }
        let cancel = try await cancelLink(sourcePaths.first, kb: kb)
        let sources: [TopicPath]
        let target: TopicPath
        let report: TopicMergeReport
        do {
            let topics = try Self.mergeTopics(query)
            sources = topics.0
            target = topics.1
            report = try await kb.mergeTopics(sources, into: target, dryRun: true)
        } catch let error where APIError.from(error).status.kind == .clientError {
            let into = PageRenderer.fieldError(
                FormProblem(field: "into", error, values: query), "into", id: "merge-into")
            let hidden = sourcePaths.map { path -> HTML in "<input type=\"hidden\" name=\"source\" value=\"\(path)\">" }
            let body: HTML = """
                <form method="get" action="/ui/merge">\(hidden)
                <span class="field"><label for="merge-into">Merge \(sourcePaths.joined(separator: ", ")) into</label>
                <input id="merge-into" name="into" value="\(query.get("into") ?? "")" required placeholder="Work/Projects"\(into.attributes)></span>
                <button type="submit">Preview the merge</button>\(into.message)</form>
                <p>\(cancel)</p>
                """
            return renderer.page("Merge preview", context: context, status: .badRequest, body)
        }
        var moving: [Fact] = []
        for source in sources {
            var filter = FactFilter()
            filter.topicPath = source
            filter.activity = .all
            moving += try await kb.facts(matching: filter, limit: Self.pageSize + 1 - moving.count)
            if moving.count > Self.pageSize { break }
        }
        let items = moving.prefix(Self.pageSize).map { fact -> HTML in
            "<li><a href=\"/ui/facts/\(fact.id)\">\(fact.content)</a> <span class=\"meta\">\(fact.topicPath)</span></li>"
        }
        let more: HTML = moving.count > Self.pageSize ? "<p class=\"meta\">…and more.</p>" : ""
        let fields = sources.map { ("source", $0.description) } + [("into", target.description)]
        let body: HTML = """
            \(Self.mergeSummary(report))
            \(items.isEmpty ? "" : "<section aria-labelledby=\"moving\"><h2 id=\"moving\">The facts that move</h2><ul class=\"moving\">\(items)</ul>\(more)</section>" as HTML)
            <div class="actions">\(renderer.button("Merge", action: "/ui/merge", context: context, fields: fields)) \(cancel)</div>
            """
        return renderer.page("Merge preview", context: context, body)
    }

    /// The link back to the topic a merge started from, or to the topics.
    private func cancelLink(_ source: String?, kb: KnowledgeBase) async throws -> HTML {
        if let source, let path = try? TopicPath(source), let topic = try await kb.topic(at: path) {
            return "<a href=\"/ui/topics/\(topic.id)\">Cancel: back to \(topic.path)</a>"
        }
        return "<a href=\"/ui\">Cancel: back to the topics</a>"
    }

    /// `POST /ui/merge` with `source`s and `into`: merges, then shows the target topic with what
    /// the merge did.
    @Sendable func merge(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let (sources, target) = try Self.mergeTopics(try await form(request, context))
        let kb = try await knowledgeBase(context)
        let report = try await kb.mergeTopics(sources, into: target)
        await say(Self.mergeSentence(report) + " The undo list can take it back.", context)
        guard let topic = try await kb.topic(at: target) else { return PageRenderer.redirect(to: "/ui") }
        return PageRenderer.redirect(to: "/ui/topics/\(topic.id)")
    }

    private static func mergeTopics(_ fields: QueryFields) throws -> ([TopicPath], TopicPath) {
        let sources = fields.all("source").filter { !$0.isEmpty }
        guard !sources.isEmpty, let target = fields.get("into"), !target.isEmpty else {
            throw APIError.badRequest(
                "missing_topics", "name the topic to merge (source) and the one that receives it (into)")
        }
        return (try sources.map { try TopicPath($0) }, try TopicPath(target))
    }

    /// `Moved 2 facts from A into B and merged 1 duplicate.`
    static func mergeSentence(_ report: TopicMergeReport) -> String {
        let facts = PageRenderer.count(report.movedFacts, "fact")
        let duplicates =
            report.mergedFacts == 0
            ? "" : " and \(report.dryRun ? "merge" : "merged") \(PageRenderer.count(report.mergedFacts, "duplicate"))"
        return "\(report.dryRun ? "Merging would move" : "Moved") \(facts) from "
            + "\(report.mergedTopics.joined(separator: ", ")) into \(report.target)\(duplicates)."
    }

    private static func mergeSummary(_ report: TopicMergeReport) -> HTML {
        let clusters = report.factClusters.map { cluster -> HTML in
            "<li>“\(cluster.survivor.content)” absorbs \(cluster.duplicates.map { "“\($0.content)”" }.joined(separator: ", "))</li>"
        }
        return """
            <p>\(mergeSentence(report))</p>
            \(clusters.isEmpty ? "" : "<ul>\(clusters)</ul>" as HTML)
            """
    }
}

extension Dictionary {
    fileprivate func mapKeys<NewKey: Hashable>(_ transform: (Key) -> NewKey) -> [NewKey: Value] {
        [NewKey: Value](uniqueKeysWithValues: map { (transform($0.key), $0.value) })
    }
}
