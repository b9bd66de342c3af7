import Foundation
import Mnemo
import MnemoEncoder
import MnemoPostgres
import Observation

/// The code blocks of the doc comments under `Sources/`, compiled with the package; each doc
/// comment quotes its region exactly (`ExamplesTests` checks it). They are compiled, not run:
/// several open files or need the model.
public enum DocCommentExamples {
    /// A form that shows a message beside one of its fields, for the `MnemoError` example.
    public protocol Form {
        func show(_ message: String, on field: String)
    }

    /// `KnowledgeBase`'s own example.
    static func knowledgeBase() async throws {
        // example: doc-knowledge-base
        let kb = try KnowledgeBase(path: "memory.sqlite", namespace: "user-42")
        try await kb.addFact(
            NewFact(content: "Prefers SwiftUI over UIKit", topicPath: "Technology/iOS Development", type: .preference))
        let hits = try await kb.search("swiftui")
        // end example
        _ = hits
    }

    /// `PostgresMemory`'s example: one namespace of a store shared by several servers.
    static func postgresMemory(encoder: any Embedder) async throws {
        // example: doc-postgres-memory
        let memory = try await PostgresMemory.connect(
            PostgresLocation(url: "postgres://mnemo:secret@db.internal/mnemo"),
            configuration: KnowledgeBase.Configuration(embedder: encoder))
        let alice = try await memory.knowledgeBase(namespace: "alice")
        try await alice.addFact(NewFact(content: "Prefers window seats", topicPath: "Travel", type: .preference))
        // end example
    }

    /// `KnowledgeBase.withFactLimit(_:policy:)`'s example: each user the limit of their plan.
    static func factLimits(kb: KnowledgeBase) throws {
        // example: doc-fact-limit
        let alice = try kb.inNamespace("alice").withFactLimit(50) // free plan
        let bob = try kb.inNamespace("bob").withFactLimit(1_000, policy: .evictLeastValuable)
        // end example
        _ = (alice, bob)
    }

    /// `KnowledgeBase.addFacts(_:nearDuplicates:repeats:)`'s example: facts an app makes sure
    /// exist each time it starts.
    static func startUpFacts(kb: KnowledgeBase, onboardingFacts: [NewFact]) async throws {
        // example: doc-add-facts-leave-unchanged
        let outcomes = try await kb.addFacts(onboardingFacts, repeats: .leaveUnchanged)
        print(outcomes.filter(\.isAdded).count, "facts were missing")
        // end example
    }

    /// `KnowledgeBase.Configuration`'s example: a database in an App Group container.
    static func configuration(containerURL: URL) throws {
        // example: doc-configuration
        var configuration = KnowledgeBase.Configuration(namespace: "user-42", embedder: HashingEmbedder())
        configuration.observesSuspensionNotifications = true // database in an App Group container
        let kb = try KnowledgeBase(
            url: containerURL.appendingPathComponent("memory.sqlite"),
            configuration: configuration)
        // end example
        _ = kb
    }

    // example: doc-observe-facts
    @MainActor @Observable final class MemoryModel {
        var facts: [Fact] = []
        func watch(_ kb: KnowledgeBase) async throws {
            for try await facts in kb.observeFacts() { self.facts = facts }
        }
    }
    // end example

    /// `MnemoError`'s example: catching the cases an app handles.
    static func catchingErrors(kb: KnowledgeBase, id: Int64, form: some Form) async throws {
        // example: doc-mnemo-error
        do {
            try await kb.deleteFact(id: id)
        } catch MnemoError.notFound(.fact) {
            // already gone: refresh the list
        } catch MnemoError.invalidInput(let field, let reason) {
            form.show(reason, on: field)
        } catch MnemoError.storageFailure(let failure) where failure.isBusy {
            // another process holds the write lock: retry later
        }
        // end example
    }

    /// `AddFactOutcome`'s example.
    static func addFactOutcome(kb: KnowledgeBase) async throws {
        // example: doc-add-fact-outcome
        switch try await kb.addFact(NewFact(content: "Lives in Porto", topicPath: "Home")) {
        case .added(let fact): print("new fact", fact.id)
        case .merged(let survivor): print("merged into", survivor.id)
        case .unchanged(let existing): print("already known as", existing.id)
        }
        // end example
    }

    /// `HistoryEvent.Change`'s example.
    static func historyChanges(kb: KnowledgeBase, id: Int64) async throws {
        // example: doc-history-changes
        for event in try await kb.history(ofFact: id) {
            if case .updated(let changes) = event.change {
                for change in changes { print(change.field, change.old, "→", change.new) }
            }
        }
        // end example
    }

    /// `HistoryEvent`'s description example.
    static func historyDescription(kb: KnowledgeBase, id: Int64) async throws {
        // example: doc-history-description
        for event in try await kb.history(ofFact: id) { print(event) }
        // 2025-03-14T09:21:00Z fact #3: added to "Technology/iOS Development" (from conv-17)
        // 2025-03-15T10:02:00Z fact #3: updated importance: medium → high
        // end example
    }

    /// `TopicPath`'s example: text from users.
    static func topicPathFromText(_ userText: String) throws {
        // example: doc-topic-path
        let path = try TopicPath(validating: userText) // MnemoError.invalidInput on bad text
        let same = try TopicPath(userText) // the same initialiser
        // end example
        _ = (path, same)
    }

    /// `TopicPath.init(validating:)`'s example.
    static func topicPathError() throws {
        // example: doc-topic-path-error
        do {
            _ = try TopicPath(validating: "Health & Fitness/Running/")
        } catch MnemoError.invalidInput(let field, let reason) {
            print(field, reason) // topicPath "Health & Fitness/Running/": it has an empty segment
        }
        // end example
    }

    /// `CachingEmbedder`'s example (with `import MnemoEncoder`).
    static func cachingEmbedder() throws {
        // example: doc-caching-embedder
        let encoder = try SentenceEncoder(modelDirectory: ModelFolder.modelDirectory)
        let kb = try KnowledgeBase(path: "memory.sqlite", embedder: CachingEmbedder(encoder, capacity: 1_000))
        // end example
        _ = kb
    }

    /// `SentenceEncoder`'s example.
    static func sentenceEncoder() throws {
        // example: doc-sentence-encoder
        let encoder = try SentenceEncoder(modelDirectory: ModelFolder.modelDirectory)
        let vectors = encoder.encode(["my aunt lives in Braga", "my uncle lives in Braga"])
        // end example
        _ = vectors
    }

    /// `SearchParameters`' example (a `package` type: the front doors' shared parsing).
    static func searchParameters() throws {
        // example: doc-search-parameters
        var parameters = SearchParameters(maximumLimit: 50)
        try parameters.set(.type, to: "goal,fact")
        try parameters.set(.importance, to: ">=medium")
        let query = parameters.searchQuery("rust", defaultMode: .hybrid, defaultLimit: 10)
        // end example
        _ = query
    }
}
