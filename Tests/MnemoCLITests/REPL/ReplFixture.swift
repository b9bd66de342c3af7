import Foundation
import MnemoTestSupport
import Testing

/// Runs the REPL over the fixture knowledge base, through a pipe.
enum ReplFixture {
    /// The fixture facts ingested once, with vectors from the hashing fallback embedder (the
    /// runner hides the model), so that hybrid search, `:explain` and `:dedupe` have vectors.
    /// 349 lines: 6 exact duplicates, and 4 planted paraphrases that share their values ("15 km",
    /// "6b", "2021", "December 2025") merge even at the hashing fallback's lower similarities.
    static let database: String = {
        let path = try! TestKnowledgeBase.temporaryPath()
        let result = try! CLIRunner.run([
            "ingest", ModelFixture.fixtures.appendingPathComponent("knowledge.jsonl").path, "--db", path,
        ])
        precondition(result.status == 0, result.stderr)
        return path
    }()

    /// A copy of ``database`` for a test that changes it.
    static func scratchDatabase() throws -> String {
        let path = try TestKnowledgeBase.temporaryPath()
        try FileManager.default.copyItem(atPath: database, toPath: path)
        return path
    }

    /// Feeds `lines` to `mnemo repl` on standard input.
    static func run(
        _ lines: [String], database: String = database, arguments: [String] = [],
        environment: [String: String] = [:]
    ) throws -> CLIRunner.Result {
        try CLIRunner.run(
            ["repl", "--db", database] + arguments, environment: environment,
            input: lines.map { $0 + "\n" }.joined())
    }

    /// The JSON documents printed one after another, each pretty-printed from a line `{` or `[`
    /// to a line `}` or `]`; the lines between documents are left out.
    static func jsonDocuments(_ output: String) throws -> [Any] {
        var documents: [String] = []
        var current: String?
        for line in output.split(separator: "\n") {
            if current == nil, ["{", "[", "[]", "{}"].contains(line) {
                current = ""
            }
            guard current != nil else { continue }
            current! += line + "\n"
            if ["}", "]", "[]", "{}"].contains(line) {
                documents.append(current!)
                current = nil
            }
        }
        return try documents.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) }
    }

    /// The results of a search printed as JSON.
    static func results(_ document: Any) throws -> [[String: Any]] {
        let object = try #require(document as? [String: Any])
        return try #require(object["results"] as? [[String: Any]])
    }
}
