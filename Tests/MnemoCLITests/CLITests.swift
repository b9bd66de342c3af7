import ArgumentParser
import Foundation
import Mnemo
import MnemoTestSupport
import Testing

@testable import MnemoCLI

@Suite("mnemo command line", .serialized)
struct CLITests {
    static let knowledge = ModelFixture.fixtures.appendingPathComponent("knowledge.jsonl").path

    /// A database with the fixture knowledge base, ingested once for the suite.
    static let database: String = {
        let path = try! TestKnowledgeBase.temporaryPath()
        _ = try! CLIRunner.run(["ingest", knowledge, "--db", path, "--no-embeddings"])
        return path
    }()

    /// Every subcommand of `mnemo`, read from the root command's groups (the one list).
    static let commandNames: [String] = MnemoCommand.configuration.groupedSubcommands
        .flatMap(\.subcommands).map { $0._commandName }

    @Test func helpListsEveryCommand() throws {
        let result = try CLIRunner.run(["--help"])
        #expect(result.status == 0)
        #expect(Self.commandNames.count >= 26)
        for command in Self.commandNames {
            #expect(result.stdout.contains("  \(command) "), "help lacks \(command)")
        }
        #expect(result.stdout.contains("--db <path|url>"))
    }

    @Test func versionPrintsTheOneVersion() throws {
        let result = try CLIRunner.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == MnemoVersion.current)
    }

    @Test func searchHelpTeachesTheOptions() throws {
        let result = try CLIRunner.run(["search", "--help"])
        #expect(result.status == 0)
        for option in [
            "--mode <mode>", "--type <type>", "--importance <importance>", "--topic <path>", "--limit",
            "--min-similarity", "--include-inactive", "--json", "Examples:",
        ] {
            #expect(result.stdout.contains(option), "search help lacks \(option)")
        }
    }

    @Test func evalHelpSpellsTheDefaultFusionAsItIsTyped() throws {
        let result = try CLIRunner.run(["eval", "--help"])
        #expect(result.status == 0)
        let help = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("weighted:<text weight>:<saturation>. (default: standard)"), "\(help)")
    }

    @Test func replInTextModeOpensADatabaseOfAnotherModelsVectors() throws {
        let path = try TestKnowledgeBase.temporaryPath()
        let bench = try CLIRunner.run([
            "bench", "--facts", "300", "--queries", "1", "--only", "text",
            "--no-numpy", "--no-bandwidth", "--db", path,
        ])
        #expect(bench.status == 0, "\(bench.stderr)")
        // The vectors are synthetic; the embedder would be the hashing fallback.
        let semantic = try CLIRunner.run(["repl", "--db", path])
        #expect(semantic.status != 0 && semantic.stderr.contains("reembed"))
        let text = try CLIRunner.run(["repl", "--mode", "text", "--db", path])
        #expect(text.status == 0, "\(text.stderr)")
    }

    /// A process of Mnemo's own opens its databases before SQLite starts, so SQLite's memory
    /// statistics (one mutex taken by every allocation of every thread) are off.
    @Test func benchRunsSQLiteWithoutMemoryStatistics() throws {
        let bench = try CLIRunner.run([
            "bench", "--facts", "50", "--queries", "1", "--only", "text", "--no-numpy", "--no-bandwidth", "--json",
        ])
        #expect(bench.status == 0, "\(bench.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(bench.stdout.utf8)) as? [String: Any]
        let sqlite = try #require(report?["sqlite"] as? [String: Any], "\(bench.stdout)")
        #expect(sqlite["memory_statistics"] as? Bool == false)
        #expect((sqlite["version"] as? String)?.hasPrefix("3.") == true)
        // Where it was measured: machines of one kind differ.
        let machine = try #require(report?["machine"] as? [String: Any], "\(bench.stdout)")
        #expect((machine["cpu"] as? String)?.isEmpty == false)
        #expect((machine["cores"] as? Int ?? 0) >= 1)
        #expect(["portable", "avx2", "avx512"].contains(machine["kernels"] as? String ?? ""))
        #expect(machine["vnni"] is Bool)
    }

    /// The graph index's keys are there beside the exact scan's; 300 facts are below the graph's
    /// minimum, so the exact scan answers and its recall is 1.
    @Test func benchReportsTheApproximateVariants() throws {
        let result = try CLIRunner.run([
            "bench", "--facts", "300", "--queries", "3", "--only", "semantic", "--only", "semantic_ann",
            "--only", "semantic_filtered_1pct", "--only", "semantic_ann_filtered_1pct", "--no-numpy",
            "--no-bandwidth", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try result.json() as? [String: Any])
        for name in ["semantic_ann", "semantic_ann_filtered_1pct"] {
            let variant = try #require(json[name] as? [String: Any], "no \(name)")
            #expect(variant["p50_ms"] is Double && variant["p99_ms"] is Double)
            #expect(variant["recall_at_10"] as? Double == 1)
            #expect(variant["paths"] as? [String: Int] == ["exactScan": 3])
        }
        #expect((json["build"] as? [String: Any])?["ann_vectors_per_second"] == nil)
    }

    @Test func ingestThenSearchPrintsTheDocumentedJSON() throws {
        let result = try CLIRunner.run(["--db", Self.database, "search", "swiftui", "--mode", "text", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try result.json() as? [String: Any])
        #expect(json["query"] as? String == "swiftui")
        #expect(json["mode"] as? String == "text")
        let results = try #require(json["results"] as? [[String: Any]])
        #expect(results.count == 10) // the default limit; more facts mention SwiftUI
        for key in ["id", "content", "topic", "type", "importance", "confidence", "score"] {
            #expect(results[0][key] != nil, "result lacks \(key)")
        }
        #expect((results[0]["topic"] as? String)?.hasPrefix("Technology/") == true)
    }

    @Test func globalOptionsGoAfterTheSubcommandToo() throws {
        let before = try CLIRunner.run(["--db", Self.database, "--json", "stats"])
        let after = try CLIRunner.run(["stats", "--db", Self.database, "--json"])
        #expect(before.status == 0 && after.status == 0)
        #expect(before.stdout == after.stdout)
        let stats = try #require(try after.json() as? [String: Any])
        for key in ["facts", "active_facts", "topics", "by_type", "by_importance"] { #expect(stats[key] != nil) }
        #expect(stats["facts"] as? Int == 343)
    }

    @Test func topicsJSONIsATree() throws {
        let result = try CLIRunner.run(["topics", "--db", Self.database, "--json"])
        let topics = try #require(try result.json() as? [[String: Any]])
        for key in ["id", "name", "path", "fact_count", "children"] { #expect(topics[0][key] != nil) }
        let technology = try #require(topics.first { $0["name"] as? String == "Technology" })
        #expect((technology["children"] as? [[String: Any]])?.isEmpty == false)
    }

    @Test func failuresExitNonZeroWithOneLineOnStderr() throws {
        for arguments in [
            ["fact", "show", "999999", "--db", Self.database],
            ["search", "x", "--db", "/nonexistent/dir/kb.sqlite"],
            ["topic", "No Such Topic", "--db", Self.database],
            ["search", "x", "--limit", "0", "--db", Self.database],
        ] {
            let result = try CLIRunner.run(arguments)
            #expect(result.status != 0, "\(arguments)")
            let firstLine = result.stderr.split(separator: "\n").first.map(String.init) ?? ""
            #expect(firstLine.hasPrefix("Error: "), "\(arguments): \(result.stderr)")
        }
        let missing = try CLIRunner.run(["fact", "show", "999999", "--db", Self.database])
        #expect(missing.stderr == "Error: no fact with id 999999\n")
    }

    @Test func semanticSearchWithoutAModelAnnouncesTheFallback() throws {
        let result = try CLIRunner.run(["search", "where does my sister live", "--db", Self.database, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("hashed"))
    }
}
