import Foundation
import GRDB

/// A user's long-term memory: topics and facts in one SQLite file, searchable by words and meaning.
///
/// A knowledge base is a `Sendable` value: share one instance between tasks and threads. It owns
/// the database connection pool (WAL mode) and runs the schema migrations when it opens. Every
/// operation is scoped to ``namespace``; use ``inNamespace(_:)`` to work on another user's memory
/// through the same connection.
///
/// ```swift
/// let kb = try KnowledgeBase(path: "memory.sqlite", namespace: "user-42")
/// try await kb.addFact(NewFact(content: "Prefers SwiftUI over UIKit",
///                              topicPath: "Technology/iOS Development", type: .preference))
/// let hits = try await kb.search("swiftui")
/// ```
public final class KnowledgeBase: Sendable {
    /// The namespace that every operation of this instance reads and writes.
    public let namespace: String
    let writer: any DatabaseWriter

    /// The namespace used when none is given.
    public static let defaultNamespace = "default"

    /// Opens (creating if needed) the knowledge base stored at `path`.
    /// - Throws: `DatabaseError` when the file cannot be opened or is not a Mnemo database.
    public convenience init(path: String, namespace: String = KnowledgeBase.defaultNamespace) throws {
        try self.init(writer: DatabaseFactory.openPool(atPath: path), namespace: namespace)
    }

    /// Creates a knowledge base that lives in memory only, for tests and previews.
    public static func inMemory(namespace: String = KnowledgeBase.defaultNamespace) throws -> KnowledgeBase {
        try KnowledgeBase(writer: DatabaseFactory.openInMemory(), namespace: namespace)
    }

    init(writer: any DatabaseWriter, namespace: String) throws {
        guard !namespace.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw MnemoError.invalidNamespace(namespace)
        }
        self.writer = writer
        self.namespace = namespace
    }

    /// The same knowledge base, scoped to another namespace.
    public func inNamespace(_ namespace: String) throws -> KnowledgeBase {
        try KnowledgeBase(writer: writer, namespace: namespace)
    }

    /// The namespaces that hold at least one topic.
    public func namespaces() async throws -> [String] {
        try await writer.read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT namespace FROM topic ORDER BY namespace")
        }
    }
}
