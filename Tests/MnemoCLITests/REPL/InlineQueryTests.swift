import Mnemo
import Testing

@testable import MnemoCLI

@Suite("REPL inline filters")
struct InlineQueryTests {
    @Test func filtersAreTakenOutOfTheSearchedText() throws {
        let query = try InlineQuery(parsing: "marathon type:goal training importance:>=medium limit:20")
        #expect(query.text == "marathon training")
        #expect(query.types == [.goal])
        #expect(query.minimumImportance == .medium)
        #expect(query.limit == 20)
        #expect(query.importances == nil && query.topicPath == nil && query.mode == nil)
    }

    @Test func everyFilterForm() throws {
        #expect(try InlineQuery(parsing: "type:goal,fact x").types == [.goal, .fact])
        #expect(try InlineQuery(parsing: "type:goal type:experience x").types == [.goal, .experience])
        #expect(try InlineQuery(parsing: "TYPE:Goal x").types == [.goal])
        #expect(try InlineQuery(parsing: "importance:high x").importances == [.high])
        #expect(try InlineQuery(parsing: "importance:high,low x").importances == [.high, .low])
        #expect(try InlineQuery(parsing: "importance:>=medium x").minimumImportance == .medium)
        #expect(try InlineQuery(parsing: "importance:>medium x").minimumImportance == .high)
        #expect(
            try InlineQuery(parsing: "importance:<=low x").importances == Set(Importance.allCases.filter { $0 <= .low })
        )
        #expect(
            try InlineQuery(parsing: "importance:<medium x").importances
                == Set(Importance.allCases.filter { $0 < .medium }))
        #expect(try InlineQuery(parsing: "importance:=high x").importances == [.high])
        #expect(try InlineQuery(parsing: #"topic:"Work/Side Projects" x"#).topicPath == "Work/Side Projects")
        #expect(try InlineQuery(parsing: "topic:Work/Projects x").topicPath == "Work/Projects")
        #expect(try InlineQuery(parsing: "topic:\"  Work / Projects \" x").topicPath == "Work/Projects")
        #expect(try InlineQuery(parsing: "active:all x").activity == .all)
        #expect(try InlineQuery(parsing: "active:inactive x").activity == .inactiveOnly)
        #expect(try InlineQuery(parsing: "active:active x").activity == .activeOnly)
        #expect(try InlineQuery(parsing: "limit:20 x").limit == 20)
        #expect(try InlineQuery(parsing: "mode:semantic x").mode == .semantic)
        #expect(try InlineQuery(parsing: "mode:text x").mode == .text)
        #expect(try InlineQuery(parsing: "min:0.5 x").minSimilarity == 0.5)
    }

    @Test func theSearchQueryTakesTheFiltersOverTheSessionDefaults() throws {
        let plain = try InlineQuery(parsing: "climbing").searchQuery(mode: .hybrid, limit: 5)
        #expect(plain == SearchQuery("climbing", mode: .hybrid, filter: FactFilter(), limit: 5))
        let filtered = try InlineQuery(
            parsing: #"climbing mode:text limit:3 min:0.2 active:all topic:"Health & Fitness""#
        )
        .searchQuery(mode: .hybrid, limit: 5)
        #expect(
            filtered
                == SearchQuery(
                    "climbing", mode: .text,
                    filter: FactFilter(topicPath: "Health & Fitness", activity: .all),
                    limit: 3, minSimilarity: 0.2))
    }

    @Test func quotedPhrasesAndOtherColonsStayInTheText() throws {
        #expect(try InlineQuery(parsing: #""porto marathon" type:goal"#).text == #""porto marathon""#)
        #expect(try InlineQuery(parsing: #"search "type:goal" literally"#).text == #"search "type:goal" literally"#)
        #expect(try InlineQuery(parsing: "half marathon in 1:41:22").text == "half marathon in 1:41:22")
        #expect(try InlineQuery(parsing: "see https://example.com").text == "see https://example.com")
        #expect(try InlineQuery(parsing: "ratio: 3 to 1").text == "ratio: 3 to 1")
        #expect(try InlineQuery(parsing: "  climbing   gym ").text == "climbing gym")
    }

    @Test func summaryNamesEveryFilter() throws {
        let query = try InlineQuery(
            parsing: #"x type:goal,fact importance:>=medium topic:"Work/Projects" active:all min:0.5"#)
        #expect(
            query.filterSummary == [
                "type fact, goal", "importance ≥ medium", "topic Work/Projects",
                "active and inactive", "similarity ≥ 0.5",
            ])
        #expect(query.hasFilters)
        #expect(try !InlineQuery(parsing: "just words").hasFilters)
    }

    @Test(arguments: [
        ("impotance:high run", "unknown filter impotance: — did you mean importance:?"),
        ("typ:goal", "did you mean type:?"),
        ("tpye:goal", "did you mean type:?"),
        ("limt:3", "did you mean limit:?"),
        ("topc:Work", "did you mean topic:?"),
        ("activ:all", "did you mean active:?"),
        ("mdoe:text", "did you mean mode:?"),
        (
            "type:gaol",
            #"unknown type "gaol" (expected fact, preference, goal or experience; several with commas); did you mean goal?"#
        ),
        ("type:goal,", "type has an empty value"),
        (
            "type:opinion",
            #"unknown type "opinion" (expected fact, preference, goal or experience; several with commas)"#
        ),
        ("importance:hihg", "did you mean high?"),
        ("importance:>=med", "did you mean medium?"),
        ("importance:>high", "nothing is more important than high"),
        ("importance:>=low,high", ">= takes one importance"),
        (
            "active:al",
            #"unknown active state "al" (expected all, active (the default) or inactive); did you mean all?"#
        ),
        ("mode:semantc", "did you mean semantic?"),
        ("limit:0", #"limit takes a whole number from 1 to 1000, not "0""#),
        ("limit:many", "limit takes"),
        ("min:2", #"min_similarity takes a cosine similarity from -1 to 1, not "2""#),
        ("type:", "type: needs a value"),
        ("topic:\"\"", "topic: needs a value"),
        ("topic:\"a//b\"", "topic is not a topic path: \"a//b\": it has an empty segment"),
    ])
    func mistakesAreErrorsWithAHint(line: String, message: String) {
        #expect(throws: InlineQueryError.self) { try InlineQuery(parsing: line) }
        do {
            _ = try InlineQuery(parsing: line)
        } catch {
            #expect(error.description.contains(message), "\(line): \(error.description)")
        }
    }

    @Test func tokensKeepQuotedSpans() {
        #expect(
            InlineQuery.tokens(in: #"a topic:"Work/Side Projects" "b c" d"#) == [
                "a", #"topic:"Work/Side Projects""#, #""b c""#, "d",
            ])
        #expect(InlineQuery.tokens(in: #"unbalanced "quote here"#) == ["unbalanced", #""quote here"#])
    }

    @Test func spellingHints() {
        #expect(SpellingHint.distance("importance", "impotance") == 1)
        #expect(SpellingHint.distance("type", "tpye") == 1)
        #expect(SpellingHint.distance("", "abc") == 3)
        #expect(SpellingHint.suggestion(for: "hist", among: ["history", "help"]) == "history")
        #expect(SpellingHint.suggestion(for: "xyz", among: ["fact", "history"]) == nil)
        // A short word gets one edit, not two: "note" is not "mode".
        #expect(SpellingHint.suggestion(for: "time", among: ["type", "mode"]) == nil)
    }
}
