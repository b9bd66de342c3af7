import Foundation
import HTTPTypes
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
        return try await factPage(fact, kb: kb, context: context)
    }

    /// The fact view; a refused edit or erase shows its form again with what was typed and the
    /// error beside its field, with `status`.
    func factPage(
        _ fact: Fact, kb: KnowledgeBase, context: MnemoRequestContext, status: HTTPResponse.Status = .ok,
        problem: FactFormProblem? = nil
    ) async throws -> Response {
        let id = fact.id
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
        let sources: HTML =
            fact.sources.isEmpty
            ? "<p>No source recorded.</p>"
            : "<ul class=\"sources\">\(fact.sources.map { source -> HTML in "<li>\(source)</li>" })</ul>"
        let mergedList: HTML =
            merged.isEmpty ? "<p>No duplicate was merged into this fact.</p>" : "<ul class=\"merged\">\(merged)</ul>"
        let conflictSection: HTML =
            conflicts.isEmpty ? "<p>This fact is in no conflict.</p>" : conflictList(conflicts, context: context)
        let historyList = history.map { event -> HTML in
            "<li>\(PageRenderer.date(event.date)) \(event.change.description)</li>"
        }
        let body: HTML = """
            <p class="fact-content">\(fact.content)</p>
            <dl class="fields">
            <dt>Topic</dt><dd><a href="/ui/search?topic=\(PageQuery.encode(fact.topicPath))">\(fact.topicPath)</a></dd>
            <dt>Type</dt><dd><span class="badge">\(fact.type.rawValue)</span></dd>\
            <dt>Importance</dt><dd><span class="badge">\(fact.importance.rawValue)</span></dd>
            <dt>Confidence</dt><dd>\(Self.number(fact.confidence))</dd>
            <dt>State</dt><dd>\(fact.isActive ? "active" : "inactive")</dd>
            <dt>Mentioned</dt><dd>\(PageRenderer.count(fact.mentionCount, "time"))</dd>
            <dt>Stated</dt><dd>\(PageRenderer.date(fact.createdAt))</dd><dt>Updated</dt><dd>\(PageRenderer.date(fact.updatedAt))</dd>
            <dt>Expires</dt><dd>\(fact.expiresAt.map(PageRenderer.date) ?? "never")</dd>
            \(goal)
            </dl>
            <section aria-labelledby="sources"><h2 id="sources">Sources</h2>\(sources)</section>
            <section aria-labelledby="conflicts"><h2 id="conflicts">Conflicts</h2>\(conflictSection)</section>
            <section aria-labelledby="merged"><h2 id="merged">Merged duplicates</h2>\(mergedList)</section>
            <section aria-labelledby="history"><h2 id="history">History</h2><ol class="history">\(historyList)</ol></section>
            \(factActions(fact, context: context, problem: problem))
            """
        return renderer.page("Fact #\(id)", context: context, status: status, body)
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

    private func factActions(_ fact: Fact, context: MnemoRequestContext, problem: FactFormProblem?) -> HTML {
        guard renderer.mode.allowsChanges else { return "" }
        let base = "/ui/facts/\(fact.id)"
        let edit = problem?.form == .edit ? problem?.problem : nil
        let erase = problem?.form == .erase ? problem?.problem : nil
        func value(_ name: String, _ stored: String) -> String { edit?.values.get(name) ?? stored }
        let expiry = value("expires_at", fact.expiresAt.map(Timestamp.format) ?? "")
        let toggle =
            fact.isActive
            ? renderer.button("Deactivate", action: base + "/deactivate", context: context)
            : renderer.button("Reactivate", action: base + "/reactivate", context: context)
        let formError: HTML? = edit.flatMap { problem -> HTML? in
            problem.field == nil ? "<p class=\"error\" role=\"alert\">\(problem.message)</p>" : nil
        }
        let content = PageRenderer.fieldError(edit, "content", id: "e-content")
        let type = PageRenderer.fieldError(edit, "type", id: "e-type")
        let importance = PageRenderer.fieldError(edit, "importance", id: "e-importance")
        let topic = PageRenderer.fieldError(edit, "topic", id: "e-topic")
        // The expiry's field names its hint too, so its attributes are written below.
        let expires = PageRenderer.fieldError(edit, "expires_at", id: "e-expires").message
        let confirm = PageRenderer.fieldError(erase, "confirm", id: "erase-confirm")
        return """
            <section aria-labelledby="edit"><h2 id="edit">Edit</h2>
            \(formError)
            <form method="post" action="\(base)/edit" class="fields">\(renderer.csrf(context))
            <label for="e-content">Content</label>
            <div><textarea id="e-content" name="content" rows="3" required\(content.attributes)>\(value("content", fact.content))</textarea>\(content.message)</div>
            <label for="e-type">Type</label>
            <div><select id="e-type" name="type"\(type.attributes)>\(Self.options(FactType.allCases.map(\.rawValue), selected: value("type", fact.type.rawValue)))</select>\(type.message)</div>
            <label for="e-importance">Importance</label>
            <div><select id="e-importance" name="importance"\(importance.attributes)>\(Self.options(Importance.allCases.map(\.rawValue), selected: value("importance", fact.importance.rawValue)))</select>\(importance.message)</div>
            <label for="e-topic">Topic</label>
            <div><input id="e-topic" name="topic" value="\(value("topic", fact.topicPath))" required\(topic.attributes)>\(topic.message)</div>
            <label for="e-expires">Expires</label>
            <div><input id="e-expires" name="expires_at" value="\(expiry)" placeholder="2026-01-01T00:00:00Z"\
            \(edit?.field == "expires_at" ? " aria-invalid=\"true\" aria-describedby=\"e-expires-error e-expires-hint\"" : " aria-describedby=\"e-expires-hint\"" as HTML)>\
            <p class="hint" id="e-expires-hint">ISO 8601 (2026-01-01T00:00:00Z); empty for never.</p>\(expires)</div>
            <div></div><div><button type="submit">Save</button></div>
            </form></section>
            <section aria-labelledby="forget"><h2 id="forget">Forget</h2>
            <div class="actions">\(toggle)
            \(renderer.button("Delete (undoable)", action: base + "/delete", context: context))</div>
            <form method="post" action="\(base)/erase" class="erase">\(renderer.csrf(context))
            <label for="erase-confirm">To erase this fact for good, type <kbd>erase</kbd></label>
            <input id="erase-confirm" name="confirm" autocomplete="off" required value="\(erase?.values.get("confirm") ?? "")"\(confirm.attributes)>
            <button type="submit" class="danger">Erase for good</button>\(confirm.message)
            </form></section>
            """
    }

    /// Conflicts, each with the forms that settle it; each button names the fact it keeps.
    func conflictList(_ conflicts: [FactConflict], context: MnemoRequestContext) -> HTML {
        let items = conflicts.map { conflict -> HTML in
            let action = "/ui/conflicts/\(conflict.id)/resolve"
            func side(_ label: String, _ fact: Fact) -> HTML {
                "<li><span class=\"badge\">\(label)</span> <a href=\"/ui/facts/\(fact.id)\">#\(fact.id)</a>, stated \(PageRenderer.date(fact.createdAt)): \(fact.content)</li>"
            }
            let newer = PageRenderer.excerpt(conflict.newer.content)
            let older = PageRenderer.excerpt(conflict.older.content)
            return """
                <li class="conflict" data-key="conflict-\(conflict.id)"><p>\(conflict.reason) (similarity \(Self.number(conflict.similarity)))</p>
                <ul>\(side("older", conflict.older))\(side("newer", conflict.newer))</ul>
                <div class="actions">\
                \(renderer.button("Keep the newer", action: action, context: context, fields: [("keep", "newer")], about: newer))
                \(renderer.button("Keep the older", action: action, context: context, fields: [("keep", "older")], about: older))
                \(renderer.button("Keep both", action: action, context: context, fields: [("keep", "both")], about: "\(older) and \(newer)"))\
                </div></li>
                """
        }
        return "<ul class=\"conflicts\">\(items)</ul>"
    }
}

/// A refused form of the fact view: which of its forms, and what was wrong.
struct FactFormProblem: Sendable {
    enum Form: Sendable { case edit, erase }
    var form: Form
    var problem: FormProblem
}
