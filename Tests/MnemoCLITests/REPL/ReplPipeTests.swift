import Foundation
import MnemoTestSupport
import Testing

/// The REPL driven through a pipe, as a script uses it: every filter form, every command,
/// errors and hints.
@Suite("REPL through a pipe", .serialized)
struct ReplPipeTests {
    @Test func pipedInputGetsResultsWithoutPromptsBannerOrColour() throws {
        let result = try ReplFixture.run(["climbing"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("mnemo>"))
        #expect(!result.stdout.contains("Ask something"))
        #expect(!result.stdout.contains("\u{1B}"))
        #expect(result.stdout.contains("climbing gym"))
        #expect(
            result.stdout.range(of: #"(?m)^5 results in [0-9.]+ ms \(hybrid\)$"#, options: .regularExpression) != nil,
            "\(result.stdout)")
        // Each hit: number and content, then type, importance, topic path, id and score.
        #expect(
            result.stdout.range(
                of:
                    #"(?m)^1\. .+\n   (fact|preference|goal|experience) · (none|low|medium|high) · [^·]+ · #\d+ · \d\.\d{3}$"#,
                options: .regularExpression) != nil, "\(result.stdout)")
    }

    @Test func inlineFiltersNarrowTheSearchAndLeaveTheText() throws {
        let result = try ReplFixture.run([
            ":json",
            "marathon type:goal",
            "type:goal,experience marathon limit:10",
            "running importance:>=high",
            "running importance:low,none",
            #"run topic:"Health & Fitness/Running""#,
            "climbing limit:2",
            "climbing mode:text",
            "climbing mode:semantic min:0.3",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let documents = try ReplFixture.jsonDocuments(result.stdout)
        #expect(documents.count == 8)
        let searches = try documents.compactMap { $0 as? [String: Any] }.map { ($0, try ReplFixture.results($0)) }
        try #require(searches.count == 8)

        #expect(searches[0].0["query"] as? String == "marathon")
        #expect(!searches[0].1.isEmpty && searches[0].1.allSatisfy { $0["type"] as? String == "goal" })
        #expect(searches[1].0["query"] as? String == "marathon")
        // At most the limit: the weak-hit floor may leave out the tail.
        #expect(
            (1...10).contains(searches[1].1.count)
                && searches[1].1.allSatisfy { ["goal", "experience"].contains($0["type"] as? String) })
        #expect(!searches[2].1.isEmpty && searches[2].1.allSatisfy { $0["importance"] as? String == "high" })
        #expect(
            !searches[3].1.isEmpty
                && searches[3].1.allSatisfy { ["low", "none"].contains($0["importance"] as? String) })
        #expect(
            !searches[4].1.isEmpty
                && searches[4].1.allSatisfy { ($0["topic"] as? String)?.hasPrefix("Health & Fitness/Running") == true })
        #expect(searches[5].1.count == 2)
        #expect(searches[6].0["mode"] as? String == "text")
        #expect(searches[6].1.allSatisfy { ($0["content"] as? String)?.lowercased().contains("climb") == true })
        #expect(searches[7].0["mode"] as? String == "semantic")
        #expect(searches[7].1.allSatisfy { ($0["similarity"] as? Double ?? 0) >= 0.3 })
    }

    @Test func filtersAloneListTheFactsThatPassThem() throws {
        let result = try ReplFixture.run(["type:goal importance:high limit:7"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.range(
                of: #"(?m)^7 facts in [0-9.]+ ms \(type goal; importance high\)$"#, options: .regularExpression) != nil,
            "\(result.stdout)")
        let json = try ReplFixture.run(["type:goal importance:high limit:7"], arguments: ["--json"])
        let facts = try #require(try ReplFixture.jsonDocuments(json.stdout).first as? [[String: Any]])
        #expect(facts.count == 7)
        #expect(facts.allSatisfy { $0["type"] as? String == "goal" && $0["importance"] as? String == "high" })
    }

    @Test func inactiveFactsNeedActiveAll() throws {
        let database = try ReplFixture.scratchDatabase()
        let search = try CLIRunner.run([
            "search", "Porto Marathon", "--mode", "text", "--limit", "1", "--db", database, "--json",
        ])
        let id = try #require(try ReplFixture.results(search.json()).first?["id"] as? Int)
        #expect(try CLIRunner.run(["fact", "deactivate", "\(id)", "--db", database]).status == 0)
        let result = try ReplFixture.run(
            [
                ":json", "porto marathon mode:text limit:50", "porto marathon mode:text limit:50 active:all",
                "porto marathon mode:text active:inactive",
            ], database: database)
        let documents = try ReplFixture.jsonDocuments(result.stdout).dropFirst(0).map(ReplFixture.results)
        #expect(!documents[0].contains { $0["id"] as? Int == id })
        #expect(documents[1].contains { $0["id"] as? Int == id && $0["is_active"] as? Bool == false })
        #expect(documents[2].map { $0["id"] as? Int } == [id])
        let text = try ReplFixture.run(["porto marathon mode:text active:all limit:1"], database: database)
        #expect(text.stdout.contains("inactive · "), "\(text.stdout)")
    }

    @Test func colourAndHighlightingOnlyWhenAskedForOrOnATerminal() throws {
        // `swift test` runs with NO_COLOR=1; an empty NO_COLOR does not count (no-color.org).
        let colour = try ReplFixture.run(["marathon type:goal"], environment: ["CLICOLOR_FORCE": "1", "NO_COLOR": ""])
        #expect(colour.stdout.contains("\u{1B}[1;33mmarathon\u{1B}[22;39m"), "\(colour.stdout)")
        #expect(colour.stdout.contains("\u{1B}[35mgoal\u{1B}[39m"))
        let noColour = try ReplFixture.run(
            ["marathon type:goal"], environment: ["CLICOLOR_FORCE": "1", "NO_COLOR": "1"])
        #expect(!noColour.stdout.contains("\u{1B}"))
        #expect(noColour.stdout.contains("marathon"))
    }

    @Test func lookupCommands() throws {
        let search = try CLIRunner.run([
            "search", "Porto Marathon", "--mode", "text", "--limit", "1", "--db", ReplFixture.database, "--json",
        ])
        let id = try #require(try ReplFixture.results(search.json()).first?["id"] as? Int)
        let result = try ReplFixture.run([
            ":fact \(id)", ":fa #\(id)", ":hist \(id)", ":topic health & fitness/running",
            ":topics", ":stats", ":help",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.stdout
        #expect(out.components(separatedBy: "#\(id)  Goal: run the Porto Marathon").count == 3)
        #expect(out.contains("  topic       Health & Fitness/Running"))
        #expect(out.range(of: #"(?m)^\d{4}-\d\d-\d\dT[0-9:.]+Z  added"#, options: .regularExpression) != nil, "\(out)")
        #expect(out.range(of: #"Health & Fitness/Running\n +1\. "#, options: .regularExpression) != nil)
        #expect(out.contains("Technology (0, "))
        #expect(out.contains("  Programming Languages ("))
        #expect(out.contains("339 facts (339 active, 0 inactive) in "))
        #expect(out.contains("by type        fact "))
        for command in ReplHelp.commands { #expect(out.contains(command), "help lacks \(command)") }
        for filter in [
            "type:goal,fact", "importance:>=medium", #"topic:"Work/Projects""#, "active:all", "limit:20",
            "mode:semantic", "min:0.5",
        ] {
            #expect(out.contains(filter), "help lacks \(filter)")
        }
    }

    @Test func lookupCommandsPrintJSONAfterTheToggle() throws {
        let result = try ReplFixture.run([
            ":json", ":fact 1", ":history 1", ":topic Pets", ":topics", ":stats", ":dedupe", ":json", ":stats",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("JSON output on"))
        let body = result.stdout.split(separator: "\n", maxSplits: 1).last.map(String.init) ?? ""
        let json = body.components(separatedBy: "Text output on.").first ?? ""
        let documents = try ReplFixture.jsonDocuments(json)
        #expect(documents.count == 6)
        #expect((documents[0] as? [String: Any])?["id"] as? Int == 1)
        #expect(((documents[1] as? [[String: Any]])?.first)?["event"] as? String == "added")
        #expect((documents[2] as? [String: Any])?["path"] as? String == "Pets")
        #expect((documents[3] as? [[String: Any]])?.isEmpty == false)
        #expect((documents[4] as? [String: Any])?["active_facts"] as? Int == 339)
        #expect((documents[5] as? [String: Any])?["dry_run"] as? Bool == true)
        #expect(result.stdout.contains("339 facts (339 active"))
    }

    @Test func dedupeIsADryRun() throws {
        let database = try ReplFixture.scratchDatabase()
        let result = try ReplFixture.run([":dedupe", ":topics"], database: database)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("topics: "), "\(result.stdout)")
        #expect(result.stdout.contains("Health and Fitness"))
        #expect(result.stdout.contains("would merge (dry run: nothing changed"))
        let topics = try CLIRunner.run(["topics", "--db", database])
        #expect(topics.stdout.contains("Health and Fitness"))
    }

    @Test func mergeMovesTopicsAndCompletionFollows() throws {
        let database = try ReplFixture.scratchDatabase()
        let result = try ReplFixture.run(
            [
                ":merge Health and Fitness into Health & Fitness", ":topic Health and Fitness",
                #":merge "Reading & Books", Books & Reading into "Books & Reading""#,
                ":merge Pets", ":merge into Pets",
            ], database: database)
        #expect(
            result.stdout.contains("Health and Fitness into Health & Fitness: 2 facts moved"),
            "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains(#"error: no topic "Health and Fitness""#))
        #expect(result.stderr.contains("cannot merge \"Books & Reading\" into itself"))
        #expect(result.stderr.components(separatedBy: "usage: :merge SOURCE[, SOURCE…] into TARGET").count == 3)
        #expect(result.status == 1)
        let topics = try CLIRunner.run(["topics", "--db", database])
        #expect(!topics.stdout.contains("Health and Fitness"))
    }

    @Test func explainGivesTheScoresAndTheFusion() throws {
        let result = try ReplFixture.run([
            "porto marathon", ":explain 1", ":json", ":explain 2", "porto marathon mode:text", ":explain 1",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.stdout
        #expect(out.contains("is result 1 of 5 (hybrid, score "), "\(out)")
        #expect(out.contains("  words    porto, marathon: matched Porto, Marathon"))
        #expect(
            out.range(of: #"text     BM25 [0-9.]+, rank \d+ of \d+ word matches"#, options: .regularExpression) != nil)
        #expect(
            out.range(of: #"meaning  cosine [0-9.]+, rank \d+ of the 100 nearest"#, options: .regularExpression) != nil)
        #expect(
            out.range(
                of:
                    #"fusion   \(1 − 0\.35·c²\) × cosine / best cosine \+ 0\.35·c² × bm25 / best bm25 × s / best s, c = share of the query's words in the memory, s = share in this fact; cosine [0-9.]+, bm25 [0-9.]+ → [0-9.]+"#,
                options: .regularExpression) != nil, "\(out)")
        #expect(out.contains("  below    result 2 #"))
        let documents = try ReplFixture.jsonDocuments(
            String(out[out.range(of: "JSON output on (:json again for text).")!.upperBound...]))
        let explanation = try #require(documents.first as? [String: Any])
        let search = try ReplFixture.results(try #require(documents.dropFirst().first))
        #expect(explanation["result"] as? Int == 2)
        #expect(explanation["mode"] as? String == "hybrid")
        // The standard fusion scales each list by its best score for the query: a hit scores at
        // most 1.
        let score = try #require(explanation["score"] as? Double)
        #expect(score > 0 && score <= 1 + 1e-9)
        #expect((explanation["semantic"] as? [String: Any])?["candidates"] as? Int == 100)
        #expect((explanation["above"] as? [String: Any])?["result"] as? Int == 1)
        let textExplanation = try #require(documents.last as? [String: Any])
        #expect(textExplanation["mode"] as? String == "text")
        #expect(textExplanation["id"] as? Int == search.first?["id"] as? Int)
        #expect((textExplanation["text"] as? [String: Any])?["rank"] as? Int == 1)
        #expect(textExplanation["fusion"] == nil)
    }

    @Test func mistakesGetAHintAndTheSessionGoesOn() throws {
        let result = try ReplFixture.run([
            "impotance:high run", "type:gaol", "importance:>=med", "limit:0", "mode:semantc", "active:al",
            #"climbing topic:"Health & Fitnes/Climbing""#, ":fcat 3", ":type goal", ":bogus",
            ":fact", ":fact abc", ":fact 999999", ":history 999999", ":topic", ":topic Nowhere", ":explain 1", ":to",
            "climbing", ":explain 9", ":explain x", ":mode fast", ":limit 0",
            "marathon limit:1",
        ])
        #expect(result.status == 1)
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }.map(String.init)
        #expect(errors.count == 22, "\(result.stderr)")
        for hint in [
            "did you mean importance:?",
            #"unknown type "gaol" (expected fact, preference, goal or experience; several with commas); did you mean goal?"#,
            "did you mean medium?", "limit takes a whole number from 1 to 1000", "did you mean semantic?",
            "did you mean all?",
            #"did you mean "Health & Fitness/Climbing"?"#, "unknown command :fcat — did you mean :fact?",
            ":type is not a command: filters go in the query", "unknown command :bogus; type :help",
            "usage: :fact ID", "no fact with id 999999", "usage: :topic PATH", #"no topic "Nowhere""#,
            "search first", ":to could be :topic or :topics",
            "usage: :explain N, where N is a result number from 1 to 5", "usage: :mode text|semantic|hybrid",
            "usage: :limit N",
        ] {
            #expect(result.stderr.contains(hint), "no \(hint) in \(result.stderr)")
        }
        // The good lines still ran.
        #expect(result.stdout.contains("5 results in "))
        #expect(result.stdout.contains("1 result in "))
    }

    @Test func quitStopsReadingAndSettingsStick() throws {
        let result = try ReplFixture.run([":mode text", ":limit 2", "climbing", ":quit", "marathon"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Searching by text from now on."))
        #expect(
            result.stdout.range(of: #"2 results in [0-9.]+ ms \(text\)"#, options: .regularExpression) != nil,
            "\(result.stdout)")
        #expect(!result.stdout.contains("arathon"))
    }

    @Test func theNamespaceScopesEverything() throws {
        let result = try ReplFixture.run(
            ["climbing mode:text", ":stats", ":topics"], arguments: ["--namespace", "someone-else"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("No results in "))
        #expect(result.stdout.contains("0 facts (0 active, 0 inactive) in 0 topics"))
        #expect(result.stdout.contains("No topics yet."))
    }

    @Test func textModeWorksWithoutTheEmbedder() throws {
        let result = try ReplFixture.run(["climbing", ":mode hybrid", ":dedupe"], arguments: ["--mode", "text"])
        #expect(result.stdout.range(of: #"5 results in [0-9.]+ ms \(text\)"#, options: .regularExpression) != nil)
        #expect(result.stderr.contains("hybrid search needs the embedding model"))
        #expect(result.stdout.contains("open the REPL without --mode text"))
    }
}

/// What `:help` must list.
enum ReplHelp {
    static let commands = [
        ":fact ID", ":history ID", ":topic PATH", ":topics", ":stats", ":merge A[, B…] into C", ":dedupe",
        ":explain N", ":json", ":help", ":quit", ":mode", ":limit N",
    ]
}
