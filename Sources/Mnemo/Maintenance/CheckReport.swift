/// What ``KnowledgeBase/check(repair:)`` found and, with `repair`, what it did.
public struct CheckReport: Sendable, Hashable, Codable {
    /// One problem, as a stable machine-readable code and a sentence.
    public struct Problem: Sendable, Hashable, Codable, CustomStringConvertible {
        public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
            /// SQLite's `integrity_check` found damage in the file itself. Not repairable here:
            /// restore a backup (`mnemo export` output) into a new database.
            case sqliteIntegrity = "sqlite_integrity"
            /// The full-text index disagrees with the facts. Repair rebuilds it.
            case fullTextIndex = "full_text_index"
            /// Facts without a vector: semantic search cannot find them. Repair embeds them.
            case factsWithoutVectors = "facts_without_vectors"
            /// Vectors whose fact is gone, or whose size is not the model's. Repair deletes them
            /// (and embeds their facts again when they exist).
            case strayVectors = "stray_vectors"
            /// Vectors are stored but no model identity is recorded, or it is not the embedder's.
            case modelIdentity = "model_identity"
            /// A topic whose parent is missing or in another namespace. Repair makes it top-level.
            case orphanTopic = "orphan_topic"
            /// Topics that are their own ancestors. Repair makes the oldest of each cycle top-level.
            case topicCycle = "topic_cycle"
            /// A topic whose stored path, path key, name key or depth is not what its parents
            /// give. Repair recomputes them.
            case topicPath = "topic_path"
            /// A fact whose topic is missing or in another namespace. Repair moves it to a
            /// top-level `Recovered` topic of its namespace.
            case factTopic = "fact_topic"
            /// A fact row, vector or history event of a fact that a tombstone says was erased.
            /// Repair erases them (and rewrites the full-text index).
            case erasedRemains = "erased_remains"
            /// Facts of a namespace with the same normalized content, which Mnemo stores once (a
            /// repeat counts a mention); only a writer other than Mnemo makes them. Repair merges
            /// each group into its oldest fact.
            case duplicateContent = "duplicate_content"
        }

        public var code: Code
        /// What is wrong, in words.
        public var message: String
        /// How many rows it affects, when it is a count.
        public var count: Int?

        public var description: String { "\(code.rawValue): \(message)" }
    }

    /// The problems left: after the repair when one ran. Empty means the database is clean.
    public var problems: [Problem]
    /// The problems found before the repair; equal to ``problems`` without one.
    public var found: [Problem]
    /// What the repair did, one sentence each; empty without a repair.
    public var repairs: [String]
    /// The checks that ran, in order, by code.
    public var checked: [Problem.Code]

    /// True when no problem is left.
    public var isClean: Bool { problems.isEmpty }
}
