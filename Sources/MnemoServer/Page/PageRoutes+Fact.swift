import Foundation
import Hummingbird
import Mnemo

extension PageRoutes {
    /// `GET /ui/facts/{id}`: a fact with its sources, its history, its conflicts and the
    /// duplicates merged into it, and the forms that edit, deactivate, delete or erase it. A
    /// deleted fact shows its history and the way back (the undo list); an erased one its
    /// tombstone; an id the caller's namespace never had is a 404.
    @Sendable func fact(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let kb = try await knowledgeBase(context)
        let id = try FactPath.id(context)
        guard let fact = try await kb.fact(id: id) else { return try await missingFact(id, kb: kb, context: context) }
        let history = try await kb.history(ofFact: id)
        let conflicts = try await kb.conflicts(limit: Self.conflictScan).filter {
            $0.older.id == id || $0.newer.id == id
        }
        let merged = history.compactMap { event -> HTML? in
            guard case .merged(let content, let mergedID, let similarity, let source) = event.change else { return nil }
            let from: HTML = source.map { " from \($0)" } ?? ""
            let number: HTML = mergedID.map { " (was fact #\($0))" } ?? ""
            let close: HTML = similarity.map { ", similarity \(Self.number($0))" } ?? ""
            return "<li>“\(content)”\(number)\(from)\(close), \(PageRenderer.date(event.date))</li>"
        }
        let goal: HTML =
            fact.type == .goal
            ? """
            <dt>Status</dt><dd>\(fact.status?.rawValue ?? "")</dd>\
            <dt>Progress</dt><dd>\(fact.progress.map { Self.number($0) } ?? "")</dd>
            """ : ""
        let body: HTML = """
            <p class="fact-content">\(fact.content)</p>
            <dl>
            <dt>Topic</dt><dd><a href="/ui/search?topic=\(PageQuery.encode(fact.topicPath))">\(fact.topicPath)</a></dd>
            <dt>Type</dt><dd>\(fact.type.rawValue)</dd><dt>Importance</dt><dd>\(fact.importance.rawValue)</dd>
            <dt>Confidence</dt><dd>\(Self.number(fact.confidence))</dd>
            <dt>State</dt><dd>\(fact.isActive ? "active" : "inactive")</dd>
            <dt>Mentioned</dt><dd>\(fact.mentionCount) times</dd>
            <dt>Stated</dt><dd>\(PageRenderer.date(fact.createdAt))</dd><dt>Updated</dt><dd>\(PageRenderer.date(fact.updatedAt))</dd>
            <dt>Expires</dt><dd>\(fact.expiresAt.map(PageRenderer.date) ?? "never")</dd>
            \(goal)
            </dl>
            <section aria-labelledby="sources"><h2 id="sources">Sources</h2>\
            \(fact.sources.isEmpty ? "<p>No source recorded.</p>" : "<ul>\(fact.sources.map { "<li>\($0)</li>" as HTML })</ul>")</section>
            <section aria-labelledby="conflicts"><h2 id="conflicts">Conflicts</h2>\
            \(conflicts.isEmpty ? "<p>None.</p>" : conflictList(conflicts, context: context))</section>
            <section aria-labelledby="merged"><h2 id="merged">Merged duplicates</h2>\
            \(merged.isEmpty ? "<p>None.</p>" : "<ul>\(merged)</ul>")</section>
            <section aria-labelledby="history"><h2 id="history">History</h2><ol>\(history.map { event -> HTML in
                "<li>\(PageRenderer.date(event.date)) \(event.change.description)</li>"
            })</ol></section>
            \(factActions(fact, context: context))
            """
        return renderer.page("Fact #\(id)", context: context, body)
    }

    /// How many conflicts the fact view scans for the fact's own.
    static let conflictScan = 1_000

    private func missingFact(_ id: Int64, kb: KnowledgeBase, context: MnemoRequestContext) async throws -> Response {
        if let tombstone = try await kb.tombstone(ofFact: id) {
            return renderer.page(
                "Fact #\(id)", context: context, status: .gone,
                "<p>Erased for good \(PageRenderer.date(tombstone.erasedAt)) (\(tombstone.reason.rawValue)). Nothing of it is kept.</p>"
            )
        }
        // Throws not found for an id this namespace never had.
        let history = try await kb.history(ofFact: id)
        return renderer.page(
            "Fact #\(id)", context: context,
            """
            <p>This fact was deleted. Its history is kept, and <a href="/ui/undo">the undo list</a> can bring it back.</p>
            <ol>\(history.map { event -> HTML in "<li>\(PageRenderer.date(event.date)) \(event.change.description)</li>" })</ol>
            """)
    }

    private func factActions(_ fact: Fact, context: MnemoRequestContext) -> HTML {
        guard renderer.mode.allowsChanges else { return "" }
        let base = "/ui/facts/\(fact.id)"
        let expiry = fact.expiresAt.map(Timestamp.format) ?? ""
        let toggle =
            fact.isActive
            ? renderer.button("Deactivate", action: base + "/deactivate", context: context)
            : renderer.button("Reactivate", action: base + "/reactivate", context: context)
        return """
            <section aria-labelledby="edit"><h2 id="edit">Edit</h2>
            <form method="post" action="\(base)/edit">\(renderer.csrf(context))
            <label for="e-content">Content</label>
            <textarea id="e-content" name="content" rows="3" required>\(fact.content)</textarea>
            <label for="e-type">Type</label>
            <select id="e-type" name="type">\(Self.options(FactType.allCases.map(\.rawValue), selected: fact.type.rawValue))</select>
            <label for="e-importance">Importance</label>
            <select id="e-importance" name="importance">\(Self.options(Importance.allCases.map(\.rawValue), selected: fact.importance.rawValue))</select>
            <label for="e-topic">Topic</label>
            <input id="e-topic" name="topic" value="\(fact.topicPath)" required>
            <label for="e-expires">Expires (ISO 8601, empty for never)</label>
            <input id="e-expires" name="expires_at" value="\(expiry)" placeholder="2026-01-01T00:00:00Z">
            <button type="submit">Save</button>
            </form></section>
            <section aria-labelledby="forget"><h2 id="forget">Forget</h2>
            \(toggle)
            \(renderer.button("Delete (undoable)", action: base + "/delete", context: context))
            <form method="post" action="\(base)/erase">\(renderer.csrf(context))
            <label for="erase-confirm">To erase this fact for good, type <kbd>erase</kbd></label>
            <input id="erase-confirm" name="confirm" autocomplete="off" required>
            <button type="submit" class="danger">Erase for good</button>
            </form></section>
            """
    }

    /// Conflicts, each with the forms that settle it.
    func conflictList(_ conflicts: [FactConflict], context: MnemoRequestContext) -> HTML {
        let items = conflicts.map { conflict -> HTML in
            let action = "/ui/conflicts/\(conflict.id)/resolve"
            func side(_ label: String, _ fact: Fact) -> HTML {
                "<li>\(label) <a href=\"/ui/facts/\(fact.id)\">#\(fact.id)</a>, stated \(PageRenderer.date(fact.createdAt)): \(fact.content)</li>"
            }
            return """
                <li class="conflict"><p>\(conflict.reason) (similarity \(Self.number(conflict.similarity)))</p>
                <ul>\(side("older", conflict.older))\(side("newer", conflict.newer))</ul>
                \(renderer.button("Keep the newer", action: action, context: context, fields: [("keep", "newer")]))
                \(renderer.button("Keep the older", action: action, context: context, fields: [("keep", "older")]))
                \(renderer.button("Keep both", action: action, context: context, fields: [("keep", "both")]))
                </li>
                """
        }
        return "<ul class=\"conflicts\">\(items)</ul>"
    }
}
