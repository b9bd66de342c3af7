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
        if let content = form.get("content"), content.trimmingCharacters(in: .whitespacesAndNewlines) != fact.content {
            try edit.setContent(content)
        }
        if let type = form.get("type"), type != fact.type.rawValue { try edit.setType(type) }
        if let importance = form.get("importance"), importance != fact.importance.rawValue {
            try edit.setImportance(importance)
        }
        if let topic = form.get("topic"), topic != fact.topicPath { try edit.setTopic(topic) }
        if let text = form.get("expires_at")?.trimmingCharacters(in: .whitespaces) {
            let expiry = text.isEmpty ? nil : text
            if expiry != fact.expiresAt.map(Timestamp.format) { try edit.setExpiresAt(expiry) }
        }
        if !edit.isEmpty { _ = try await kb.updateFact(id: id, edit.update, isActive: nil) }
        return PageRenderer.redirect(to: "/ui/facts/\(id)")
    }

    /// `POST /ui/facts/{id}/deactivate`, `…/reactivate`: back to the fact.
    @Sendable func deactivateFact(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        try await onFact(context, then: "/ui/facts/") { kb, id in try await kb.deactivateFact(id: id) }
    }

    @Sendable func reactivateFact(_ request: Request, context: MnemoRequestContext) async throws -> Response {
        try await onFact(context, then: "/ui/facts/") { kb, id in try await kb.reactivateFact(id: id) }
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
        try Self.requireConfirmation(try await form(request, context), typed: "erase")
        let kb = try await knowledgeBase(context)
        guard try await kb.fact(id: id) != nil else { throw MnemoError.notFound(.fact(id)) }
        return receiptPage(try await kb.eraseFacts(ids: [id]), context: context)
    }

    /// Refuses a destructive form whose `confirm` field is not `word`.
    static func requireConfirmation(_ form: QueryFields, typed word: String) throws {
        guard form.get("confirm")?.trimmingCharacters(in: .whitespaces) == word else {
            throw APIError.badRequest(
                "confirmation_required", "nothing was erased: type \(word) in the confirmation field to erase for good")
        }
    }

    /// What an erasure removed, as its receipt says.
    func receiptPage(_ receipt: ErasureReceipt, context: MnemoRequestContext) -> Response {
        let ids = receipt.factIDs.map(String.init).joined(separator: ", ")
        return renderer.page(
            "Erased", context: context,
            """
            <section aria-labelledby="receipt"><h2 id="receipt">Receipt</h2>
            <dl class="receipt">
            <dt>Namespace</dt><dd>\(receipt.namespace)</dd><dt>Reason</dt><dd>\(receipt.reason.rawValue)</dd>
            <dt>Facts</dt><dd>\(receipt.facts)\(ids.isEmpty ? "" : " (#\(ids))")</dd>
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
