/// How ``KnowledgeBase/sync(with:options:progress:)`` runs.
public struct SyncOptions: Hashable, Sendable {
    /// Whether the facts pulled get their vectors from this knowledge base's embedder even when
    /// the server embeds with the same model and could ship its own.
    ///
    /// Shipped vectors are the default: a first sync of 10,000 facts took 2.4 s with them against
    /// 46.5 s embedding on the device (all-MiniLM-L6-v2, two cores). Embedding here makes each
    /// pulled wording about 2 KB lighter on the wire (a 384-dimension vector in base64): the
    /// choice for a device on a metered connection that pulls a few facts at a time (see
    /// <doc:Sync>).
    public var embedsLocally: Bool

    /// Whether this sync links the file to the transport's server even though it is linked to
    /// another (`mnemo sync --relink`): the file forgets its old server's cursor and offers
    /// every fact it holds to the new one, through its duplicate rules. Without it, a linked
    /// file refuses another server (``SyncError/Kind/otherServer``).
    public var relinks: Bool

    public init(embedsLocally: Bool = false, relinks: Bool = false) {
        self.embedsLocally = embedsLocally
        self.relinks = relinks
    }
}
