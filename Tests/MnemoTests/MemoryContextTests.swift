import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

@Suite("Memory context", .storesClosed)
struct MemoryContextTests {
    static let now = Timestamp.parse("2025-06-10T12:00:00Z")!

    static func day(_ text: String) -> Date { Timestamp.parse(text)! }

    /// Vectors pinned so the message, its answer and a near duplicate of the answer sit where the
    /// scenario needs them; everything else is nearly orthogonal.
    static func embedder() -> SeededEmbedder {
        SeededEmbedder(
            dimension: 8,
            pinned: [
                "where does my sister live?": [1, 0, 0, 0, 0, 0, 0, 0],
                "Sister lives in Lisbon": [0.8, 0.6, 0, 0, 0, 0, 0, 0],
                "Sister lives in Porto": [0.8, 0.42, 0.42, 0, 0, 0, 0, 0],
                "My sister's home is in Porto": [0.78, 0.43, 0.45, 0, 0, 0, 0, 0],
                "Sister works as a nurse": [0.7, 0, 0, 0.71, 0, 0, 0, 0],
                "Allergic to peanuts": [0, 0, 0, 0, 1, 0, 0, 0],
                "Prefers oat milk in coffee": [0, 0, 0, 0, 0, 1, 0, 0],
                "Went bouldering yesterday": [0, 0, 0, 0, 0, 0, 1, 0],
                "what is my favourite opera?": [0, 0, 0, 0, 0, 0, 0, 1],
            ])
    }

    static func knowledgeBase(embedder: (any Embedder)? = embedder(), on backend: Backend = .sqlite) async throws
        -> KnowledgeBase
    {
        let kb = try await backend.empty(embedder: embedder, now: { now })
        try await kb.addFacts(
            [
                NewFact(
                    content: "Allergic to peanuts", topicPath: "Health", importance: .high, createdAt: day("2024-01-05")
                ),
                NewFact(content: "Sister lives in Lisbon", topicPath: "Family", createdAt: day("2025-01-10")),
                NewFact(
                    content: "Prefers oat milk in coffee", topicPath: "Food", type: .preference, importance: .low,
                    createdAt: day("2024-03-01")),
                NewFact(content: "Sister works as a nurse", topicPath: "Family", createdAt: day("2024-11-01")),
                NewFact(
                    content: "Went bouldering yesterday", topicPath: "Sport", type: .experience,
                    createdAt: day("2025-06-09")),
            ], nearDuplicates: nil)
        try await kb.addFact(
            NewFact(content: "Sister lives in Porto", topicPath: "Family", createdAt: day("2025-06-01")))
        return kb
    }

    /// The allergy bears on nothing about the sister: it is no standing fact for this message and
    /// comes after the facts that answer it (still `always`: its importance brought it).
    @Test(arguments: Backend.available) func itemsComeRelevantThenOtherImportantThenRecentWithTheirReasons(
        on backend: Backend
    ) async throws {
        let kb = try await Self.knowledgeBase(on: backend)
        // Two hits only, so that the bouldering and the oat milk are no hits at all.
        let context = try await kb.context(
            for: "where does my sister live?", budget: 400, options: ContextOptions(candidates: 2))
        let reasons = Dictionary(uniqueKeysWithValues: context.items.map { ($0.fact.content, $0.reason) })
        #expect(reasons["Allergic to peanuts"] == .always)
        #expect(reasons["Sister works as a nurse"] == .relevant || reasons["Sister lives in Porto"] == .relevant)
        #expect(reasons["Went bouldering yesterday"] == .recent)
        #expect(reasons["Prefers oat milk in coffee"] == nil) // neither a hit, recent nor important
        let contents = context.items.map(\.fact.content)
        let allergy = try #require(contents.firstIndex(of: "Allergic to peanuts"))
        #expect(context.items[..<allergy].allSatisfy { $0.reason == .relevant || $0.reason == .conflict })
        #expect(allergy < contents.firstIndex(of: "Went bouldering yesterday")!)
        #expect(!context.nothingRelevant)
        #expect(context.tokens <= 400)
        #expect(context.tokens == TokenEstimator().count(context.text))
    }

    @Test(arguments: Backend.available) func weakerHitsFillTheRoomInRankOrderBeforeRecentFacts(on backend: Backend)
        async throws
    {
        let kb = try await Self.knowledgeBase(on: backend)
        let message = "where does my sister live?"
        let context = try await kb.context(for: message, budget: 400)
        let answering = context.items.filter { $0.reason == .relevant }
        // Every fact is a hit of so small a memory: all come in rank order, the weak ones with
        // their low scores, and no room is needed for a "recent" part.
        // Among facts of one importance, type and topic the order is the search's (the priors
        // move the others between them).
        let ranking = try await kb.search(SearchQuery(message, limit: 100, relativeScoreFloor: nil)).map(\.fact.id)
        let kinds = Dictionary(grouping: answering) { "\($0.fact.importance) \($0.fact.type) \($0.fact.topicPath)" }
        for items in kinds.values {
            let positions = items.map { ranking.firstIndex(of: $0.fact.id) ?? -1 }
            #expect(positions == positions.sorted() && !positions.contains(-1))
        }
        #expect(answering.contains { ($0.score ?? 1) < SearchHit.defaultRelevanceThreshold })
        #expect(answering.contains { $0.fact.content == "Prefers oat milk in coffee" })
        #expect(!context.items.contains { $0.reason == .recent })
        #expect(!context.nothingRelevant)
    }

    @Test(arguments: Backend.available) func conflictingFactsArrivePairedNewerFirstWithTheirDates(on backend: Backend)
        async throws
    {
        let kb = try await Self.knowledgeBase(on: backend)
        #expect(try await kb.conflicts().count == 1)
        let context = try await kb.context(for: "where does my sister live?", budget: 400)
        let contents = context.items.map(\.fact.content)
        let porto = try #require(contents.firstIndex(of: "Sister lives in Porto"))
        #expect(contents[porto + 1] == "Sister lives in Lisbon")
        #expect(
            context.text.contains(
                "- Sister lives in Porto (later, conflicts with the next line)\n"
                    + "- Sister lives in Lisbon (earlier)\n"))
        #expect(context.items[porto].conflictsWith == [context.items[porto + 1].fact.id])
    }

    @Test(arguments: Backend.available) func theTextIsMarkdownGroupedByTopic(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(on: backend)
        let context = try await kb.context(for: "where does my sister live?", budget: 400)
        #expect(context.text.hasPrefix("## Family\n"))
        #expect(context.text.contains("\n\n## Health\n- Allergic to peanuts\n"))
        #expect(context.text.components(separatedBy: "## Family").count == 2)
    }

    /// A fact's line is its content alone; an experience keeps the day it was stated (what
    /// happened needs its when); neither spends tokens on its type.
    @Test func aLineSaysOnlyWhatItsContentDoesNot() async throws {
        let kb = try await Self.knowledgeBase()
        let context = try await kb.context(for: "where does my sister live?", budget: 400)
        #expect(context.text.contains("- Sister works as a nurse\n"))
        #expect(context.text.contains("- Prefers oat milk in coffee\n"))
        #expect(context.text.contains("- Went bouldering yesterday (2025-06-09)\n"))
        #expect(!context.text.contains("stated 20"))
        #expect(!context.text.contains("(fact"))
    }

    @Test(arguments: Backend.available) func aNearDuplicateOfAnItemIsLeftOut(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(on: backend)
        // Stored without the ingest rule, as an app that writes its own facts may.
        try await kb.addFacts(
            [NewFact(content: "My sister's home is in Porto", topicPath: "Family", createdAt: Self.day("2025-06-02"))],
            nearDuplicates: nil)
        let context = try await kb.context(for: "where does my sister live?", budget: 400)
        let contents = context.items.map(\.fact.content)
        #expect(contents.contains("Sister lives in Porto") != contents.contains("My sister's home is in Porto"))
    }

    /// Two chat turns of one session carry the same date and time, which once made the rule take
    /// them for one at cosine 0.72 (its merge on matching values); the second still tells something.
    @Test(arguments: Backend.available) func turnsThatShareOnlyTheirDateAreBothKept(on backend: Backend) async throws {
        let diet = "Nate (8:16 pm on 25 October, 2022) They eat a combination of vegetables, fruits, and insects."
        let fruit =
            "Nate (8:16 pm on 25 October, 2022) I love seeing them eat fruit - they get so hyped and it's so cute!"
        let embedder = SeededEmbedder(
            dimension: 4,
            pinned: [
                "what does Nate feed his turtles?": [1, 0, 0, 0],
                diet: [0.9, 0.43589, 0, 0],
                fruit: [0.9, -0.20652, 0.38388, 0],
            ])
        let kb = try await backend.empty(embedder: embedder, now: { Self.now })
        try await kb.addFacts(
            [NewFact(content: diet, topicPath: "Chat"), NewFact(content: fruit, topicPath: "Chat")], nearDuplicates: nil
        )
        let context = try await kb.context(for: "what does Nate feed his turtles?", budget: 400)
        #expect(Set(context.items.map(\.fact.content)) == [diet, fruit])
    }

    @Test(arguments: Backend.available) func highImportanceFactsStayWithinTheirShare(on backend: Backend) async throws {
        let kb = try await backend.empty(now: { Self.now })
        try await kb.addFacts(
            (1...30).map {
                NewFact(content: "Critical rule number \($0) to remember always", topicPath: "Rules", importance: .high)
            })
        // Five rules are hits; the others, filed beside them, are standing facts, up to their share.
        let context = try await kb.context(
            for: "critical rule to remember", budget: 200, options: ContextOptions(candidates: 5))
        let always = context.items.filter { $0.reason == .always }
        #expect(!always.isEmpty)
        #expect(always.reduce(0) { $0 + $1.tokens } + TokenEstimator().count("## Rules\n") <= 50)
    }

    @Test(arguments: Backend.available) func nothingRelevantIsSaidWhenNothingAnswers(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(on: backend)
        let context = try await kb.context(for: "what is my favourite opera?", budget: 400)
        #expect(context.nothingRelevant)
        // Weak hits may still fill the room, each with its low score.
        #expect(
            !context.items.contains {
                $0.reason == .relevant && ($0.score ?? 1) >= SearchHit.defaultRelevanceThreshold
            })
    }

    @Test(arguments: Backend.available) func inactiveFactsAndFactsOutsideTheFilterNeverAppear(on backend: Backend)
        async throws
    {
        let kb = try await Self.knowledgeBase(on: backend)
        let lisbon = try #require(try await kb.search("Lisbon", mode: .text).first?.fact)
        _ = try await kb.deactivateFact(id: lisbon.id)
        var options = ContextOptions()
        options.filter = FactFilter(since: Self.day("2025-01-01"))
        let context = try await kb.context(for: "where does my sister live?", budget: 400, options: options)
        #expect(!context.items.contains { $0.fact.id == lisbon.id })
        #expect(context.items.allSatisfy { $0.fact.createdAt >= Self.day("2025-01-01") && $0.fact.isActive })
    }

    @Test(arguments: Backend.available) func expiredFactsNeverAppear(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(on: backend)
        let past = Date().addingTimeInterval(-60)
        // Lisbon would come as Porto's conflict partner, the allergy as always-surfaced, the
        // bouldering as recent; each has expired.
        for content in ["Sister lives in Lisbon", "Allergic to peanuts", "Went bouldering yesterday"] {
            let fact = try #require(try await kb.search(content, mode: .text).first { $0.fact.content == content })
            _ = try await kb.updateFact(id: fact.fact.id, FactUpdate(expiresAt: .some(past)))
        }
        for budget in [60, 400, 2_000] {
            let context = try await kb.context(for: "where does my sister live?", budget: budget)
            let contents = context.items.map(\.fact.content)
            #expect(!contents.contains("Sister lives in Lisbon"))
            #expect(!contents.contains("Allergic to peanuts"))
            #expect(!contents.contains("Went bouldering yesterday"))
            #expect(!context.text.contains("Lisbon") && !context.text.contains("peanuts"))
        }
        let context = try await kb.context(for: "where does my sister live?", budget: 400)
        #expect(context.items.contains { $0.fact.content == "Sister lives in Porto" && $0.conflictsWith.isEmpty })
    }

    @Test(arguments: Backend.available) func worksWithoutAnEmbedder(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(embedder: nil, on: backend)
        let context = try await kb.context(for: "sister nurse", budget: 300)
        #expect(context.items.contains { $0.fact.content == "Sister works as a nurse" && $0.reason == .relevant })
    }

    @Test(arguments: Backend.available) func theBudgetIsNeverExceeded(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(on: backend)
        try await kb.addFacts(
            (0..<60).map { index in
                NewFact(
                    content: "Note \(index): "
                        + String(repeating: ["café ", "東京 ", "sister ", "🍕 ", "42 "][index % 5], count: index % 13 + 1),
                    topicPath: try! TopicPath("Topic \(index % 7)"), importance: index % 9 == 0 ? .high : .medium,
                    createdAt: Self.now.addingTimeInterval(-Double(index) * 3_600))
            }, nearDuplicates: nil)
        var generator = SystemRandomNumberGenerator()
        let words = ["sister", "café", "where", "東京", "", "🍕", "note", "?", "live", "42", "Lisbon"]
        let estimator = TokenEstimator()
        for budget in [0, 1, 2, 3, 5, 8, 13, 21, 34] + (0..<40).map({ _ in Int.random(in: 0...600, using: &generator) })
        {
            let message = (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                words.randomElement(using: &generator)!
            }
            .joined(separator: " ")
            let context = try await kb.context(for: message, budget: budget)
            #expect(estimator.count(context.text) <= budget, "\(message) at \(budget)")
            #expect(context.tokens <= budget)
            if budget == 0 { #expect(context.items.isEmpty && context.text.isEmpty) }
        }
    }

    @Test(arguments: Backend.available) func badArgumentsAreRejected(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(on: backend)
        await #expect(throws: MnemoError.self) { try await kb.context(for: "x", budget: -1) }
        await #expect(throws: MnemoError.self) {
            try await kb.context(for: "x", budget: 10, options: ContextOptions(alwaysShare: 1.5))
        }
    }

    @Test(arguments: Backend.available) func theJSONFormHasTheDocumentedKeys(on backend: Backend) async throws {
        let kb = try await Self.knowledgeBase(on: backend)
        let context = try await kb.context(for: "where does my sister live?", budget: 400)
        let data = try JSONEncoder.mnemoOutput(pretty: false).encode(MemoryContextJSON(context))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["context"] as? String == context.text)
        #expect(object["tokens"] as? Int == context.tokens)
        let items = try #require(object["items"] as? [[String: Any]])
        #expect(items.count == context.items.count)
        #expect(
            Set(items[0].keys).isSuperset(of: [
                "id", "content", "topic", "type", "importance", "created_at", "why", "score", "tokens",
            ]))
        let allergy = try #require(items.first { $0["content"] as? String == "Allergic to peanuts" })
        #expect(["always", "relevant"].contains(allergy["why"] as? String))
        #expect(allergy["created_at"] as? String == "2024-01-05T00:00:00Z")
    }
}
