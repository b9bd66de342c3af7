import Foundation
import HTTPTypes
import Hummingbird
import Mnemo

extension PageRoutes {
    /// `POST /ui/bulk` with `id`s and `action=delete|erase` (erase needs `confirm=erase`).
    @Sendable func bulk(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let form = try await form(request, context)
        let ids = try Self.selectedIDs(form)
        let kb = try await knowledgeBase(context)
        switch form.get("action") {
        case "delete":
            for id in ids { try await kb.deleteFact(id: id) }
            return PageRenderer.redirect(to: "/ui/undo")
        case "erase":
            try Self.requireConfirmation(form, typed: "erase")
            return receiptPage(try await kb.eraseFacts(ids: ids), context: context)
        default:
            throw APIError.badRequest("invalid_action", "action takes delete or erase")
        }
    }

    private static func selectedIDs(_ form: QueryFields) throws -> [Int64] {
        let ids = form.all("id").compactMap { Int64($0) }
        guard !ids.isEmpty else { throw APIError.badRequest("nothing_selected", "select at least one fact") }
        return ids
    }

    /// `GET /ui/export`: the caller's memory as JSONL, the bytes `mnemo export` writes for the
    /// namespace.
    @Sendable func export(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        try await exportResponse(knowledgeBase(context), only: nil)
    }

    /// `POST /ui/export` with `id`s: the export's lines of the selected facts.
    @Sendable func exportSelected(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let ids = Set(try Self.selectedIDs(try await form(request, context)))
        return try await exportResponse(knowledgeBase(context), only: ids)
    }

    private func exportResponse(_ kb: KnowledgeBase, only ids: Set<Int64>?) async throws -> Response {
        var text = ""
        for try await line in kb.exportedLines() {
            if let ids, !ids.contains(Self.exportedID(line)) { continue }
            text += line + "\n"
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/x-ndjson; charset=utf-8",
                .contentDisposition: "attachment; filename=\"mnemo-export.jsonl\"",
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
        let kb = try await knowledgeBase(context)
        let stats = try await kb.stats()
        let form: HTML =
            renderer.mode.allowsChanges
            ? """
            <form method="post" action="/ui/erase">\(renderer.csrf(context))
            <label for="erase-name">Type <kbd>\(kb.namespace)</kbd> to erase it all</label>
            <input id="erase-name" name="confirm" autocomplete="off" required>
            <button type="submit" class="danger">Erase everything for good</button></form>
            """ : "<p>This page is read-only.</p>"
        let body: HTML = """
            <p>Erasing the memory removes its \(stats.facts) facts and \(stats.topics) topics, their history, undo \
            records and vectors, so that nothing of them stays readable in the database. It cannot be undone.</p>
            \(form)
            """
        return renderer.page("Erase the whole memory", context: context, body)
    }

    /// `POST /ui/erase` with `confirm` equal to the namespace: the user's "forget me".
    @Sendable func eraseMemory(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let form = try await form(request, context)
        let kb = try await knowledgeBase(context)
        try Self.requireConfirmation(form, typed: kb.namespace)
        return receiptPage(try await kb.eraseNamespace(), context: context)
    }
}
