extension KnowledgeBase {
    /// Counts of facts by type, importance and state, and of topics, for the namespace.
    public func stats() async throws -> KnowledgeBaseStats {
        let namespace = namespace
        return try await writer.read { db in try StatisticsQuery.stats(db, namespace: namespace) }
    }
}
