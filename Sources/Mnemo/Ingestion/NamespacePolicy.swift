/// Which namespaces an ingest may write to.
///
/// A ``KnowledgeBase`` is scoped to one user's namespace, and ingested records often come from an
/// LLM reading untrusted chat text: a record that says `"namespace": "user-bob"` must not land
/// in bob's memory because alice's app ingested it. So an ingest is pinned to the knowledge
/// base's namespace unless the caller allows records to choose, as restoring a backup of several
/// namespaces (`mnemo export --all-namespaces`) needs.
public enum NamespacePolicy: String, Sendable, Hashable, CaseIterable {
    /// Every record is stored in the knowledge base's namespace. A record whose `namespace` field
    /// names another one is rejected (``IngestRejection/Code/foreignNamespace``); one that names
    /// the knowledge base's own namespace is accepted.
    case pinned
    /// A record's `namespace` field chooses its namespace; records without one go to
    /// ``IngestOptions/defaultNamespace``, else the knowledge base's. For trusted input only.
    case fromRecords = "from_records"
}
