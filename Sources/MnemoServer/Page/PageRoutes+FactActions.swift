import Foundation
import Hummingbird
import Mnemo

extension PageRoutes {
    /// `POST /ui/facts/{id}/edit`: content, type, importance, topic and expiry; only the fields
    /// that differ from the stored fact are changed (and recorded in its history).
    @Sendable func editFact(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let kb = try await knowledgeBase(context)
        let id = try FactPath.id(context)
        let form = try await form(request, context)
        guard let fact = try await kb.fact(id: id) else { throw MnemoError.notFound(.fact(id)) }
        var edit = FactEdit()
        var problem: FormProblem?
        // Each field is checked on its own, so that a refusal names the field it is about.
        func check(_ field: String, _ change: () throws -> Void) {
            guard problem == nil else { return }
            do { try change() } catch { problem = FormProblem(field: field, error, values: form) }
        }
        check("content") {
            if let content = form.get("content"),
                content.trimmingCharacters(in: .whitespacesAndNewlines) != fact.content
            {
                try edit.setContent(content)
            }
        }
        check("type") { if let type = form.get("type"), type != fact.type.rawValue { try edit.setType(type) } }
        check("importance") {
            if let importance = form.get("importance"), importance != fact.importance.rawValue {
                try edit.setImportance(importance)
            }
        }
        check("topic") { if let topic = form.get("topic"), topic != fact.topicPath { try edit.setTopic(topic) } }
        check("expires_at") {
            if let text = form.get("expires_at")?.trimmingCharacters(in: .whitespaces) {
                let expiry = text.isEmpty ? nil : text
                if expiry != fact.expiresAt.map(Timestamp.format) { try edit.setExpiresAt(expiry) }
            }
        }
        if problem == nil, !edit.isEmpty {
            do {
                _ = try await kb.updateFact(id: id, edit.update, isActive: nil)
            } catch let error where APIError.from(error).status.kind == .clientError {
                problem = FormProblem(field: nil, error, values: form)
            }
        }
        if let problem {
            return try await factPage(
                fact, kb: kb, context: context, status: .unprocessableContent,
                problem: FactFormProblem(form: .edit, problem: problem))
        }
        await say(edit.isEmpty ? "Nothing changed: the form held the stored values." : "Saved.", context)
        return PageRenderer.redirect(to: "/ui/facts/\(id)")
    }

    /// Keeps `message` for the next view (what the action did).
    func say(_ message: String, _ context: MnemoRequestContext) async {
        guard let session = context.pageSession else { return }
        await sessions.setFlash(message, id: session.id)
    }

    /// `POST /ui/facts/{id}/deactivate`, `…/reactivate`: back to the fact.
    @Sendable func deactivateFact(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let answer = try await onFact(context, then: "/ui/facts/") { kb, id in try await kb.deactivateFact(id: id) }
        await say("Deactivated: search leaves this fact out until it is reactivated.", context)
        return answer
    }

    @Sendable func reactivateFact(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let answer = try await onFact(context, then: "/ui/facts/") { kb, id in try await kb.reactivateFact(id: id) }
        await say("Reactivated.", context)
        return answer
    }

    /// `POST /ui/facts/{id}/delete`: deletes (undoable) and shows the undo list, whose first
    /// entry takes it back.
    @Sendable func deleteFact(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        try await onFact(context, then: "/ui/undo?deleted=") { kb, id in try await kb.deleteFact(id: id) }
    }

    /// Does `change` to the fact of the path, then redirects to `location` followed by its id.
    private func onFact(
        _ context: MnemoRequestContext, then location: String,
        _ change: (KnowledgeBase, Int64) async throws -> some Any
    ) async throws -> Response {
        let id = try FactPath.id(context)
        _ = try await change(knowledgeBase(context), id)
        return PageRenderer.redirect(to: location + String(id))
    }

    /// `POST /ui/facts/{id}/erase` with `confirm=erase`: erases for good and shows the receipt.
    @Sendable func eraseFact(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let id = try FactPath.id(context)
        let form = try await form(request, context)
        let kb = try await knowledgeBase(context)
        guard let fact = try await kb.fact(id: id) else { throw MnemoError.notFound(.fact(id)) }
        do {
            try Self.requireConfirmation(form, typed: "erase")
        } catch {
            return try await factPage(
                fact, kb: kb, context: context, status: .unprocessableContent,
                problem: FactFormProblem(form: .erase, problem: FormProblem(field: "confirm", error, values: form)))
        }
        return try await receiptRedirect(try await kb.eraseFacts(ids: [id]), context: context)
    }

    /// Refuses a destructive form whose `confirm` field is not `word`.
    static func requireConfirmation(_ form: QueryFields, typed word: String) throws {
        guard form.get("confirm")?.trimmingCharacters(in: .whitespaces) == word else {
            throw APIError(
                .unprocessableContent, "confirmation_required",
                "Nothing was erased: type \(word) in the confirmation field to erase for good.")
        }
    }

    /// Keeps an erasure's receipt in the session and sends the browser to its page.
    func receiptRedirect(_ receipt: ErasureReceipt, context: MnemoRequestContext) async throws -> Response {
        guard let session = context.pageSession else { throw APIError.notFound("no session to keep the receipt") }
        let number = await sessions.keep(receipt, id: session.id)
        return PageRenderer.redirect(to: "/ui/receipts/\(number)")
    }

    /// `GET /ui/receipts/{n}`: an erasure's receipt, kept by the session that erased (the last
    /// 20); a reload shows it again and erases nothing.
    @Sendable func receipt(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        let text = context.parameters.get("receipt") ?? ""
        guard let session = context.pageSession, let number = Int(text),
            let receipt = await sessions.receipt(number, id: session.id)
        else { throw APIError.notFound("no receipt \(text) in this session") }
        return receiptPage(receipt, context: context)
    }

    /// What an erasure removed, as its receipt says.
    func receiptPage(_ receipt: ErasureReceipt, context: MnemoRequestContext) -> Response {
        let ids = receipt.factIDs.map { id -> HTML in "<li>#\(id)</li>" }
        let idList: HTML = ids.isEmpty ? "" : "<ul class=\"ids\" aria-label=\"Erased fact ids\">\(ids)</ul>"
        return renderer.page(
            "Erased", context: context,
            """
            <section aria-labelledby="receipt"><h2 id="receipt">Receipt</h2>
            <dl class="receipt fields">
            <dt>Namespace</dt><dd>\(receipt.namespace)</dd><dt>Reason</dt><dd>\(receipt.reason.rawValue)</dd>
            <dt>Facts</dt><dd>\(receipt.facts)\(idList)</dd>
            <dt>Topics</dt><dd>\(receipt.topics)</dd><dt>Vectors</dt><dd>\(receipt.vectors)</dd>
            <dt>History rows</dt><dd>\(receipt.historyRows)</dd><dt>Undo records</dt><dd>\(receipt.undoRecords)</dd>
            <dt>Conflict links</dt><dd>\(receipt.conflictLinks)</dd>
            <dt>Erased at</dt><dd>\(PageRenderer.date(receipt.erasedAt))</dd>
            <dt>Log files truncated</dt><dd>\(receipt.walTruncated ? "yes" : "no")</dd>
            </dl></section>
            <p>This cannot be undone: only a tombstone (id, time, reason) remains.</p>
            """)
    }
}
