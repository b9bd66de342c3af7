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
        switch keep {
        case "both":
            try await kb.dismissConflict(id: id)
        case "newer", "older":
            guard let conflict = try await kb.conflicts(limit: Self.conflictScan).first(where: { $0.id == id }) else {
                throw MnemoError.notFound(.conflict(id))
            }
            try await kb.deactivateFact(id: keep == "newer" ? conflict.older.id : conflict.newer.id)
        default:
            throw APIError.badRequest("invalid_keep", "keep takes newer, older or both, not \"\(keep ?? "")\"")
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
            <table><caption>Active facts by type</caption><tbody>\(rows(stats.byType.mapKeys(\.rawValue)))</tbody></table>
            <table><caption>Active facts by importance</caption><tbody>\(rows(stats.byImportance.mapKeys(\.rawValue)))</tbody></table>
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
                \(renderer.button("Undo", action: "/ui/undo", context: context, fields: [("operation", String(latest.id))]))</div>
                """
        } else if let undone = query.get("undone") {
            flash = "<p class=\"notice\" role=\"status\">Undid operation #\(undone).</p>"
        }
        let rows = operations.map { operation -> HTML in
            let state: HTML =
                operation.undoneBy.map { "undone by #\($0)" }
                ?? renderer.button(
                    "Undo", action: "/ui/undo", context: context, fields: [("operation", String(operation.id))])
            return """
                <tr><td>#\(operation.id)</td><td>\(PageRenderer.date(operation.date))</td><td>\(operation.kind.rawValue)</td>\
                <td>\(operation.summary)</td><td>\(state)</td></tr>
                """
        }
        let body: HTML = """
            \(flash)
            \(operations.isEmpty ? "<p>Nothing to undo.</p>" : """
            <table><caption class="meta">The last \(Self.pageSize) operations, newest first</caption>
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

    /// `GET /ui/merge?source=A&source=B&into=C`: what merging would do (the dry run), with the
    /// button that does it.
    @Sendable func mergePreview(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let query = Self.filledFields(request)
        let (sources, target) = try Self.mergeTopics(query)
        let report = try await knowledgeBase(context).mergeTopics(sources, into: target, dryRun: true)
        let fields = sources.map { ("source", $0.description) } + [("into", target.description)]
        let body: HTML = """
            \(Self.mergeSummary(report))
            \(renderer.button("Merge", action: "/ui/merge", context: context, fields: fields))
            """
        return renderer.page("Merge preview", context: context, body)
    }

    /// `POST /ui/merge` with `source`s and `into`.
    @Sendable func merge(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let (sources, target) = try Self.mergeTopics(try await form(request, context))
        let report = try await knowledgeBase(context).mergeTopics(sources, into: target)
        return renderer.page(
            "Merged", context: context,
            "\(Self.mergeSummary(report))<p>The <a href=\"/ui/undo\">undo list</a> can take it back.</p>")
    }

    private static func mergeTopics(_ fields: QueryFields) throws -> ([TopicPath], TopicPath) {
        let sources = fields.all("source").filter { !$0.isEmpty }
        guard !sources.isEmpty, let target = fields.get("into"), !target.isEmpty else {
            throw APIError.badRequest(
                "missing_topics", "name the topic to merge (source) and the one that receives it (into)")
        }
        return (try sources.map { try TopicPath($0) }, try TopicPath(target))
    }

    private static func mergeSummary(_ report: TopicMergeReport) -> HTML {
        let clusters = report.factClusters.map { cluster -> HTML in
            "<li>“\(cluster.survivor.content)” absorbs \(cluster.duplicates.map { "“\($0.content)”" }.joined(separator: ", "))</li>"
        }
        return """
            <p>\(report.dryRun ? "Merging would move" : "Moved") \(report.movedFacts) facts from \
            \(report.mergedTopics.joined(separator: ", ")) into \(report.target) and merge \(report.mergedFacts) duplicates.</p>
            \(clusters.isEmpty ? "" : "<ul>\(clusters)</ul>" as HTML)
            """
    }
}

extension Dictionary {
    fileprivate func mapKeys<NewKey: Hashable>(_ transform: (Key) -> NewKey) -> [NewKey: Value] {
        [NewKey: Value](uniqueKeysWithValues: map { (transform($0.key), $0.value) })
    }
}
