import Foundation

/// A failure of a knowledge-base operation caused by data or environment, never by misuse.
///
/// Every case prints as one line that says what went wrong and, where there is one, the fix.
public enum MnemoError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    case invalidTopicPath(String, reason: String)
    case topicNotFound(String)
    case topicNotEmpty(String, facts: Int, children: Int)
    case topicExists(String)
    case factNotFound(Int64)
    case invalidFact(String)
    case duplicateFact(existingID: Int64)
    case invalidNamespace(String)
    case embedderMismatch(stored: EmbeddingModelIdentity, given: EmbeddingModelIdentity)
    case invalidArgument(String)
    /// An ingest input that cannot be read at all: unreadable, not JSON, or not shaped like its
    /// format. Nothing of it was stored. (Bad records in a readable input are rejected one by one.)
    case unreadableInput(String)
    /// A failure of the database (or of the embedder) stopped an ingest. The batch being
    /// written was rolled back; the `stored` records of earlier batches are kept.
    case ingestInterrupted(stored: Int, reason: String)
    /// The database file cannot be used: it is not a Mnemo database, was written by a newer
    /// version, or cannot be opened for writing. Nothing was written to it.
    case databaseUnusable(path: String, reason: String)
    /// A write failed on the database's state: locked by another process past the busy
    /// timeout, a full disk, a read-only file. The transaction was rolled back.
    case writeFailed(String)

    public var description: String {
        switch self {
        case let .invalidTopicPath(path, reason):
            "invalid topic path \(Self.quoted(path)): \(reason)"
        case let .topicNotFound(path):
            "no topic at \(Self.quoted(path))"
        case let .topicNotEmpty(path, facts, children):
            "topic \(Self.quoted(path)) is not empty (\(facts) facts, \(children) subtopics); delete with cascade to remove them too"
        case let .topicExists(path):
            "a topic already exists at \(Self.quoted(path))"
        case let .factNotFound(id):
            "no fact with id \(id)"
        case let .invalidFact(reason):
            "invalid fact: \(reason)"
        case let .duplicateFact(existingID):
            "the same fact is already stored (id \(existingID))"
        case let .invalidNamespace(namespace):
            "invalid namespace \(Self.quoted(namespace)): it must not be empty"
        case let .embedderMismatch(stored, given):
            "the database's vectors were made with \(stored), not \(given); run `mnemo reembed` to rebuild them with the current model"
        case let .invalidArgument(reason):
            reason
        case let .unreadableInput(reason):
            "cannot read the input: \(reason)"
        case let .databaseUnusable(path, reason):
            "cannot use the database \(Self.quoted(path)): \(reason)"
        case let .writeFailed(reason):
            reason
        case let .ingestInterrupted(stored, reason):
            "ingest stopped after \(stored) records were stored; the failing batch was rolled back: \(reason)"
        }
    }

    public var errorDescription: String? { description }

    private static func quoted(_ text: String) -> String { "\"\(text)\"" }
}
