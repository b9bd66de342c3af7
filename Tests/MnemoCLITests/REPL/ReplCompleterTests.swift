import Testing

@testable import MnemoCLI

@Suite("REPL Tab completion")
struct ReplCompleterTests {
    let completer = ReplCompleter(topicPaths: [
        "Health & Fitness", "Health & Fitness/Running", "Health and Fitness",
        "Technology", "Technology/iOS Development", "Work",
    ])

    @Test func commandNames() {
        #expect(completer.complete(":sta") == LineCompletion(replacedCount: 4, replacements: [":stats"], isFinal: true))
        #expect(completer.complete(":to")?.replacements == [":topic", ":topics"])
        #expect(completer.complete(":")?.replacements.count == ReplCommandDefinition.all.count)
        #expect(completer.complete(":zz") == nil)
    }

    @Test func topicPathsAfterTopicAndMerge() {
        #expect(completer.complete(":topic tech")?.replacements == ["Technology", "Technology/iOS Development"])
        #expect(
            completer.complete(":topic Health & Fitness/R")
                == LineCompletion(replacedCount: 18, replacements: ["Health & Fitness/Running"], isFinal: true))
        #expect(completer.complete(#":topic "Health & Fitness/R"#)?.replacements == [#""Health & Fitness/Running""#])
        #expect(
            completer.complete(":merge Health and Fitness into Health &")?.replacements
                == ["Health & Fitness", "Health & Fitness/Running"])
        #expect(completer.complete(":merge Work, Tech")?.replacements == ["Technology", "Technology/iOS Development"])
        #expect(completer.complete(":mode se")?.replacements == ["semantic"])
        #expect(completer.complete(":fact 1") == nil)
    }

    @Test func filterNamesAndValues() {
        #expect(
            completer.complete("marathon imp")
                == LineCompletion(replacedCount: 3, replacements: ["importance:"], isFinal: false))
        #expect(
            completer.complete("marathon type:go")
                == LineCompletion(replacedCount: 7, replacements: ["type:goal"], isFinal: true))
        #expect(completer.complete("type:goal,f")?.replacements == ["type:goal,fact"])
        #expect(completer.complete("importance:>=me")?.replacements == ["importance:>=medium"])
        #expect(completer.complete("active:")?.replacements == ["active:all", "active:active", "active:inactive"])
        #expect(completer.complete("x mode:h")?.replacements == ["mode:hybrid"])
        #expect(completer.complete("topic:Wo")?.replacements == ["topic:Work"])
        #expect(
            completer.complete("topic:health")?.replacements
                == [#"topic:"Health & Fitness""#, #"topic:"Health & Fitness/Running""#, #"topic:"Health and Fitness""#])
        #expect(
            completer.complete(#"run topic:"Health & Fitness/"#)?.replacements == [#"topic:"Health & Fitness/Running""#]
        )
        #expect(completer.complete("limit:2") == nil)
        #expect(completer.complete("marathon ") == nil)
        #expect(completer.complete(#""quoted ty"#) == nil)
    }

    @Test func replacementsAreCutToTheWordLibeditReplaces() {
        // libedit replaces the text after its last word-break character (space, quote, &…):
        // here "F", while the completer replaced all of `topic:"Health & F`.
        let path = LineCompletion(replacedCount: 17, replacements: [#"topic:"Health & Fitness""#], isFinal: true)
        #expect(path.matches(replacingWord: "F", linePrefix: #"run topic:"Health & F"#) == [#"Fitness""#])
        // The other way round: libedit's word is longer than the completed span.
        let value = LineCompletion(replacedCount: 2, replacements: ["goal"], isFinal: true)
        #expect(value.matches(replacingWord: "type:go", linePrefix: "x type:go") == ["type:goal"])
        // The part the user keeps may differ in case; a replacement that does not begin with it is left out.
        let topic = LineCompletion(replacedCount: 6, replacements: ["Health", "Work"], isFinal: true)
        #expect(topic.matches(replacingWord: "th", linePrefix: ":topic health") == ["th"])
        #expect(topic.matches(replacingWord: "health", linePrefix: ":topic health") == ["Health", "Work"])
    }

    @Test func commonPrefix() {
        #expect(LineCompletion.commonPrefix([":topic", ":topics"]) == ":topic")
        #expect(LineCompletion.commonPrefix(["a", "b"]) == "")
        #expect(LineCompletion.commonPrefix([]) == "")
    }
}
