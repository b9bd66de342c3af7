import Mnemo

/// Maps a request to its user's knowledge base: a user is a namespace, and a request never
/// reaches another's.
struct Tenancy: Sendable {
    let knowledgeBase: KnowledgeBase
    let defaultNamespace: String

    /// The knowledge base of the request's user.
    ///
    /// With a token, the user is the token's namespace and `named` (a user a path or body
    /// names) must be that user, else 403. Without authentication, the user is `named`, else
    /// the default namespace. The knowledge base has the fact limit of the request's token when
    /// its line in the tokens file sets one, else the server's (`mnemo serve --fact-limit`).
    ///
    /// On a PostgreSQL store the namespace's copy is first caught up with every acknowledged
    /// write, so the request sees what any node wrote before it.
    func knowledgeBase(_ context: MnemoRequestContext, naming named: String? = nil) async throws -> KnowledgeBase {
        let namespace: String
        if let user = context.user {
            if let named, named != user { throw APIError.forbidden(named) }
            namespace = user
        } else {
            namespace = named ?? defaultNamespace
        }
        guard !namespace.isBlank else {
            throw APIError.badRequest("invalid_user", "the user id must not be empty")
        }
        let user = try await knowledgeBase.knowledgeBase(forNamespace: namespace)
        guard let plan = context.factLimit else { return user }
        return try user.withFactLimit(plan.limit, policy: knowledgeBase.quotaPolicy)
    }
}
