import Testing

@testable import Mnemo

@Suite("Near-duplicate rule")
struct NearDuplicateRuleTests {
    let rule = NearDuplicateRule()

    @Test(arguments: [
        ("I prefer tea to coffee", "Prefers tea over coffee"),
        ("On Sunday I did a 10 km run", "I ran 10 km on Sunday"),
        ("User prefers SwiftUI over UIKit", "Prefers SwiftUI over UIKit."),
        ("Lives in Porto with her partner", "She lives in Porto with her partner"),
    ])
    func paraphrasesAgree(_ pair: (String, String)) {
        #expect(rule.agreeOnIdentity(pair.0, pair.1))
        #expect(rule.isDuplicate(pair.0, pair.1, typeA: .fact, typeB: .fact, similarity: 0.9))
    }

    @Test(arguments: [
        ("I drink tea instead of coffee", "I drink coffee instead of tea"), // swap
        ("my aunt lives in Braga", "my uncle lives in Braga"), // substitution
        ("I ran 10 km on Sunday", "I ran 21 km on Sunday"), // number
        ("Rent is 850 euros a month", "Rent is 950 euros a month"),
        ("Team meeting at 9am on Mondays", "Team meeting at 11am on Mondays"),
        ("Likes olives", "Does not like olives"), // negation
        ("Allergic to peanuts", "Allergic to walnuts"),
        ("Sister Ana lives in Lisbon", "Sister Rita lives in Lisbon"), // name
    ])
    func nearMissesDisagree(_ pair: (String, String)) {
        #expect(!rule.agreeOnIdentity(pair.0, pair.1))
        #expect(!rule.isDuplicate(pair.0, pair.1, typeA: .fact, typeB: .fact, similarity: 0.99))
    }

    @Test func typeAndThresholdMatter() {
        #expect(!rule.isDuplicate("Likes tea", "Likes tea!", typeA: .fact, typeB: .preference, similarity: 1))
        #expect(
            !rule.isDuplicate("Likes tea", "Enjoys tea", typeA: .fact, typeB: .fact, similarity: rule.threshold - 0.01))
    }

    @Test func alignmentFindsTheCheapestEdits() {
        #expect(WordAlignment.edits(from: ["a", "b", "c"], to: ["a", "x", "c"]) == [.substitute("b", "x")])
        #expect(WordAlignment.edits(from: ["a", "b"], to: ["b"]) == [.delete("a")])
        #expect(WordAlignment.edits(from: [], to: ["z"]) == [.insert("z")])
    }
}

extension NearDuplicateRuleTests {
    @Test func aNameMayOpenTheOtherSentence() {
        #expect(rule.agreeOnIdentity("Porto is where I live", "I live in Porto"))
        #expect(!rule.agreeOnIdentity("Porto is where I live", "I live in Braga"))
    }
}
