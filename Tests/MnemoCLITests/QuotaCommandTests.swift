import Foundation
import MnemoTestSupport
import Testing

/// `mnemo ingest --fact-limit` and `--fact-limit-policy`.
@Suite("mnemo ingest --fact-limit", .serialized)
struct QuotaCommandTests {
    static func input(_ lines: [String]) throws -> (input: String, database: String) {
        let folder = try TestKnowledgeBase.temporaryFolder()
        let input = folder.appendingPathComponent("facts.jsonl")
        try lines.map { #"{"topic": "Quota", "content": "\#($0)", "importance": "medium"}"# }
            .joined(separator: "\n").write(to: input, atomically: true, encoding: .utf8)
        return (input.path, folder.appendingPathComponent("kb.sqlite").path)
    }

    @Test func recordsPastTheLimitAreRejectedWithTheirLine() throws {
        let (input, database) = try Self.input(["Lives in Porto", "Works at a bakery", "Plays the cello"])
        let result = try CLIRunner.run([
            "ingest", input, "--db", database, "--no-embeddings", "--fact-limit", "2", "--json",
        ])
        #expect(result.status == 0, "some records were stored: \(result.stderr)")
        let output = try #require(try result.json() as? [String: Any])
        #expect(output["added"] as? Int == 2)
        let rejected = try #require(output["rejected"] as? [[String: Any]])
        #expect(
            rejected.count == 1 && rejected[0]["code"] as? String == "quota_exceeded"
                && rejected[0]["line"] as? Int == 3)

        let evicting = try CLIRunner.run([
            "ingest", input, "--db", database, "--no-embeddings", "--fact-limit", "2",
            "--fact-limit-policy", "evict",
        ])
        #expect(evicting.status == 0, "\(evicting.stderr)")
        #expect(evicting.stdout.contains("evicted to make room (--fact-limit): #1"), "\(evicting.stdout)")

        let negative = try CLIRunner.run(["ingest", input, "--db", database, "--fact-limit", "-1"])
        #expect(negative.status != 0 && negative.stderr.contains("--fact-limit"))
    }
}
