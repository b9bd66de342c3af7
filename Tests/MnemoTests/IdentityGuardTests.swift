import Testing

@testable import Mnemo

/// The identity and direction guards of ``NearDuplicateRule``, one class at a time, on sentences
/// that are not in the planted sets.
@Suite("Near-duplicate identity guards")
struct IdentityGuardTests {
    let rule = NearDuplicateRule()

    func verdict(_ a: String, _ b: String, _ similarity: Double = 0.95, type: FactType = .fact)
        -> NearDuplicateRule.Verdict
    {
        rule.verdict(a, b, typeA: type, typeB: type, similarity: similarity)
    }

    @Test(arguments: [
        ("45 km", "45km"), ("10pm", "22:00"), ("10 pm", "22:00"), ("7:45am", "07:45"), ("12:15pm", "12:15"),
        ("12am", "00:00"),
        ("noon", "12:00"), ("800 euros", "€800"), ("€2,500", "2500 EUR"), ("$40", "40 dollars"), ("£15", "15 pounds"),
        ("eleven", "11"), ("twenty-one", "21"), ("twenty one", "21"), ("a dozen", "12"), ("twice", "2 times"),
        ("12 March 2027", "March 12, 2027"), ("2027-03-12", "12 March 2027"), ("4th of July", "July 4"),
        ("Fridays", "Friday"), ("10,000 steps", "10000 steps"), ("2.5 litres", "2.5 litres"),
    ])
    func valuesWrittenAnotherWayAreEqual(_ pair: (String, String)) {
        #expect(FactValues(pair.0).values == FactValues(pair.1).values, "\(pair.0) / \(pair.1)")
        #expect(!FactValues(pair.0).isEmpty)
    }

    @Test(arguments: [
        ("10pm", "21:00"), ("7am", "7pm"), ("800 euros", "$800"), ("€2,500", "€25,000"), ("eleven", "12"),
        ("twice", "3 times"),
        ("12 March 2027", "12 May 2027"), ("2027-03-12", "2027-03-13"), ("Monday", "Tuesday"), ("1.5 km", "15 km"),
    ])
    func differentValuesDiffer(_ pair: (String, String)) {
        #expect(FactValues(pair.0).values != FactValues(pair.1).values, "\(pair.0) / \(pair.1)")
    }

    @Test func oneIsNotANumber() {
        #expect(FactValues("Tom is one of my direct reports").isEmpty)
        #expect(FactValues("Prefers morning runs to evening ones").isEmpty)
    }

    @Test func valuesMatchingLowerTheThreshold() {
        // Reworded around the same values: merges below the plain threshold.
        #expect(verdict("I cycle 120 km a week", "My weekly cycling distance is 120km", 0.78) == .duplicate)
        // The same wording without values needs the plain threshold.
        #expect(verdict("I cycle to work", "Cycling is how I get to work", 0.78) == .distinct)
        // Values that differ are never a duplicate, and close ones are a conflict.
        #expect(verdict("My rent is 900 euros", "My rent is €950", 0.93) == .conflict(.differentValues))
        // Below the merge threshold, only one value changed in the same frame is a conflict.
        #expect(verdict("My rent is 900 euros", "My rent is €950", 0.78) == .conflict(.differentValues))
        #expect(verdict("My rent is 900 euros", "These days the flat costs me €950", 0.78) == .distinct)
    }

    @Test func changedPreferencesAreConflicts() {
        #expect(
            verdict("I prefer tea to coffee", "Lately I'd choose coffee over tea", type: .preference)
                == .conflict(.reversedPreference))
        #expect(
            verdict("Likes summer more than winter", "Now prefers winter to summer", type: .preference)
                == .conflict(.reversedPreference))
        #expect(
            verdict(
                "Prefers audiobooks rather than podcasts", "Would rather listen to podcasts than audiobooks",
                type: .preference)
                == .conflict(.reversedPreference))
        // The same direction in other words still merges.
        #expect(
            verdict("I prefer tea to coffee", "I'd rather drink tea than coffee", 0.9, type: .preference) == .duplicate)
        #expect(
            verdict("Likes summer more than winter", "Prefers summer over winter", 0.9, type: .preference) == .duplicate
        )
    }

    @Test func roleReversalsAreConflicts() {
        #expect(verdict("I tutor Lucas in maths", "Lucas tutors me in maths") == .conflict(.reversedRoles))
        #expect(
            verdict("My cousin drove me to the airport", "I drove my cousin to the airport")
                == .conflict(.reversedRoles))
        #expect(verdict("Nora works for me", "I work for Nora") == .conflict(.reversedRoles))
        // Same roles, other word order: a duplicate.
        #expect(verdict("I tutor Lucas on Mondays", "On Mondays I tutor Lucas") == .duplicate)
        // The passive keeps the doer after "by".
        #expect(
            verdict("Lucas interviewed me for the job", "I was interviewed by Lucas for the job", 0.9) == .duplicate)
    }

    @Test func negationModalityPeoplePlacesAndTimesDiffer() {
        #expect(verdict("I eat fish", "I don't eat fish") == .conflict(.negation))
        #expect(verdict("I climbed Kilimanjaro", "I want to climb Kilimanjaro") == .conflict(.differentModality))
        #expect(verdict("I used to play the cello", "I play the cello") == .conflict(.differentModality))
        #expect(verdict("Studied French at school", "Is studying French at school") == .conflict(.differentModality))
        #expect(verdict("Dinner with Lara on Fridays", "Dinner with Rosa on Fridays") == .conflict(.differentNames))
        // Another person is not a conflict (RealConflictTests); another thing in the same frame is.
        #expect(verdict("My niece lives in Faro", "My nephew lives in Faro") == .distinct)
        #expect(
            verdict("Allergic to peanuts since childhood", "Allergic to walnuts since childhood")
                == .conflict(.substitutedWord))
        #expect(verdict("Swims on Tuesdays", "Swims on Thursdays") == .conflict(.differentValues))
        #expect(verdict("Has three bikes", "Has four bikes") == .conflict(.differentValues))
    }

    @Test func otherTypesAndFarFactsAreDistinct() {
        #expect(rule.verdict("I prefer tea", "I prefer tea", typeA: .fact, typeB: .goal, similarity: 1) == .distinct)
        #expect(verdict("I eat fish", "I don't eat fish", 0.6) == .distinct)
    }
}
