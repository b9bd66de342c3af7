import Foundation
import Mnemo

/// Builds knowledge bases for tests.
package enum TestKnowledgeBase {
    /// An empty in-memory knowledge base.
    package static func empty(namespace: String = KnowledgeBase.defaultNamespace) throws -> KnowledgeBase {
        try KnowledgeBase.inMemory(namespace: namespace)
    }

    /// A knowledge base with the given facts added in order.
    package static func with(_ facts: [NewFact], namespace: String = KnowledgeBase.defaultNamespace) async throws
        -> KnowledgeBase
    {
        try await Backend.sqlite.with(facts, namespace: namespace)
    }

    /// A path for a database file in a fresh temporary folder.
    package static func temporaryPath() throws -> String {
        try temporaryFolder().appendingPathComponent("kb.sqlite").path
    }

    /// A fresh, empty temporary folder, removed with everything in it when the test process
    /// exits.
    package static func temporaryFolder() throws -> URL {
        let folder = TestScratch.root.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// One folder for what a test process writes, removed as the process exits: a run of the suite
/// left about a hundred folders (67 MB) in the temporary directory, and runs add up.
private enum TestScratch {
    static let root: URL = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mnemo-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        atexit { try? FileManager.default.removeItem(at: TestScratch.root) }
        return root
    }()
}
