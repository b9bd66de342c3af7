import Foundation
import HTTPTypes
import Hummingbird
import Mnemo

extension PageRoutes {
    /// `POST /ui/bulk` with `id`s and `action=delete|erase` (erase needs `confirm=erase`). A
    /// refused form (nothing ticked, the word not typed) comes back as the view it was sent from
    /// (`back`), its boxes still ticked and the error beside its buttons.
    @Sendable func bulk(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let form = try await form(request, context)
        let kb = try await knowledgeBase(context)
        do {
            let ids = try Self.selectedIDs(form)
            switch form.get("action") {
            case "delete":
                for id in ids { try await kb.deleteFact(id: id) }
                await say(
                    "Deleted \(PageRenderer.count(ids.count, "fact")). Each can be brought back from this list.",
                    context)
                return PageRenderer.redirect(to: "/ui/undo")
            case "erase":
                try Self.requireConfirmation(form, typed: "erase")
                return try await receiptRedirect(try await kb.eraseFacts(ids: ids), context: context)
            default:
                throw APIError.badRequest("invalid_action", "action takes delete or erase")
            }
        } catch let error as APIError where error.status == .unprocessableContent || error.status == .badRequest {
            return try await refusedBulk(form, error, context: context)
        }
    }

    /// The view a bulk form was sent from, again, with the form's ticks and its error.
    private func refusedBulk(_ form: QueryFields, _ error: APIError, context: MnemoRequestContext) async throws
        -> Response
    {
        let field = error.code == "confirmation_required" ? "confirm" : "id"
        let problem = FormProblem(field: field, error, values: form)
        let back = form.get("back") ?? ""
        let (path, query) = Self.split(back)
        if path == "/ui/search" {
            return try await searchPage(QueryFields(encoded: query), context: context, bulk: problem)
        }
        if path.hasPrefix("/ui/topics/"), let id = Int64(path.dropFirst("/ui/topics/".count)) {
            return try await topicPage(id: id, query: QueryFields(encoded: query), context: context, bulk: problem)
        }
        throw error
    }

    /// A view's path and its query string, from `/ui/search?q=tea`.
    private static func split(_ address: String) -> (path: String, query: String) {
        guard let mark = address.firstIndex(of: "?") else { return (address, "") }
        return (String(address[..<mark]), String(address[address.index(after: mark)...]))
    }

    private static func selectedIDs(_ form: QueryFields) throws -> [Int64] {
        let ids = form.all("id").compactMap { Int64($0) }
        guard !ids.isEmpty else {
            throw APIError(.unprocessableContent, "nothing_selected", "Nothing was done: tick at least one fact.")
        }
        return ids
    }

    /// `GET /ui/export`: what the export holds, with the link that downloads it.
    @Sendable func exportPage(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let kb = try await knowledgeBase(context)
        let stats = try await kb.stats()
        let body: HTML = """
            <p>The whole memory of <b>\(kb.namespace)</b>: \(PageRenderer.count(stats.facts, "fact")) in \
            \(PageRenderer.count(stats.topics, "topic")), one JSON object a line (JSONL), the bytes \
            <code>mnemo export</code> writes. <code>mnemo ingest</code> reads it back.</p>
            <p><a class="button" href="/ui/export.jsonl" download="mnemo-\(kb.namespace).jsonl">Download \
            mnemo-\(kb.namespace).jsonl</a></p>
            <p class="meta">To export some facts only, tick them in a list (search, a topic) and press \
            “Export selected”.</p>
            """
        return renderer.page("Export", current: "/ui/export", context: context, body)
    }

    /// `GET /ui/export.jsonl`: the caller's memory as JSONL, the bytes `mnemo export` writes for
    /// the namespace.
    @Sendable func export(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let kb = try await knowledgeBase(context)
        return try await exportResponse(kb, only: nil, name: "mnemo-\(kb.namespace).jsonl")
    }

    /// `POST /ui/export` with `id`s: the export's lines of the selected facts; an id that is not
    /// the caller's is a 404, as for the bulk delete.
    @Sendable func exportSelected(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let form = try await form(request, context)
        let ids: Set<Int64>
        do {
            ids = Set(try Self.selectedIDs(form))
        } catch let error as APIError {
            return try await refusedBulk(form, error, context: context)
        }
        let kb = try await knowledgeBase(context)
        return try await exportResponse(kb, only: ids, name: "mnemo-\(kb.namespace)-\(ids.count)-facts.jsonl")
    }

    private func exportResponse(_ kb: KnowledgeBase, only ids: Set<Int64>?, name: String) async throws -> Response {
        var text = ""
        var found = Set<Int64>()
        for try await line in kb.exportedLines() {
            let id = Self.exportedID(line)
            if let ids {
                guard ids.contains(id) else { continue }
                found.insert(id)
            }
            text += line + "\n"
        }
        if let ids, let missing = ids.subtracting(found).min() { throw MnemoError.notFound(.fact(missing)) }
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/x-ndjson; charset=utf-8",
                .contentDisposition: "attachment; filename=\"\(name)\"",
            ],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// The id an export line starts with (`{"id":7,…`).
    private static func exportedID(_ line: String) -> Int64 {
        let digits = line.utf8.dropFirst(6).prefix { $0 >= 0x30 && $0 <= 0x39 }
        return Int64(String(decoding: digits, as: UTF8.self)) ?? -1
    }

    /// `GET /ui/erase`: the form that erases the whole memory, confirmed by typing its name.
    @Sendable func eraseForm(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        try await erasePage(context: context)
    }

    private func erasePage(context: MnemoRequestContext, problem: FormProblem? = nil) async throws -> Response {
        let kb = try await knowledgeBase(context)
        let stats = try await kb.stats()
        let confirm = PageRenderer.fieldError(problem, "confirm", id: "erase-name")
        let form: HTML =
            renderer.mode.allowsChanges
            ? """
            <form method="post" action="/ui/erase" class="erase">\(renderer.csrf(context))
            <label for="erase-name">Type <kbd>\(kb.namespace)</kbd> to erase it all</label>
            <input id="erase-name" name="confirm" autocomplete="off" required value="\(problem?.values.get("confirm") ?? "")"\(confirm.attributes)>
            <button type="submit" class="danger">Erase everything for good</button>\(confirm.message)</form>
            """ : "<p>This page is read-only.</p>"
        let body: HTML = """
            <p>Erasing the memory removes its \(PageRenderer.count(stats.facts, "fact")) and \
            \(PageRenderer.count(stats.topics, "topic")), their history, undo records and vectors, so that nothing of \
            them stays readable in the database. It cannot be undone.</p>
            \(form)
            """
        return renderer.page(
            "Erase the whole memory", current: "/ui/erase", context: context,
            status: problem == nil ? .ok : .unprocessableContent, body)
    }

    /// `POST /ui/erase` with `confirm` equal to the namespace: the user's "forget me".
    @Sendable func eraseMemory(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let form = try await form(request, context)
        let kb = try await knowledgeBase(context)
        do {
            try Self.requireConfirmation(form, typed: kb.namespace)
        } catch {
            return try await erasePage(context: context, problem: FormProblem(field: "confirm", error, values: form))
        }
        return try await receiptRedirect(try await kb.eraseNamespace(), context: context)
    }
}
