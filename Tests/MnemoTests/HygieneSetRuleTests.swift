import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// The near-duplicate rule's precision and recall on the planted set of `Fixtures/hygiene.json`.
@Suite("Near-duplicate rule on the planted hygiene set")
struct HygieneSetRuleTests {
    static let set = try! HygieneSet.load(HygieneSet.scoresURL)
    let rule = NearDuplicateRule()

    @Test func developmentFigures() {
        let figures = HygieneSet.figures(of: rule, on: Self.set.development)
        print("hygiene set (development): \(figures)")
        for pair in figures.mergedLookAlikes {
            Issue.record("look-alike merged: \(pair.a) / \(pair.b) (\(pair.class))")
        }
        for pair in figures.missedDuplicates {
            print("  missed: \(pair.cosine ?? 0) \(pair.a) / \(pair.b) (\(pair.class))")
        }
        #expect(figures.precision == 1)
        #expect(figures.recall >= 0.85)
    }

    @Test func secondHeldOutFigures() {
        let figures = HygieneSet.figures(of: rule, on: Self.set.heldOut2)
        print("hygiene set (held out 2): \(figures)")
        for pair in figures.mergedLookAlikes {
            Issue.record("look-alike merged: \(pair.a) / \(pair.b) (\(pair.class))")
        }
        for pair in figures.missedDuplicates {
            print("  missed: \(pair.cosine ?? 0) \(pair.a) / \(pair.b) (\(pair.class))")
        }
        #expect(figures.precision == 1)
    }

    @Test func heldOutFigures() {
        let figures = HygieneSet.figures(of: rule, on: Self.set.heldOut)
        print("hygiene set (held out): \(figures)")
        for pair in figures.mergedLookAlikes {
            Issue.record("look-alike merged: \(pair.a) / \(pair.b) (\(pair.class))")
        }
        for pair in figures.missedDuplicates {
            print("  missed: \(pair.cosine ?? 0) \(pair.a) / \(pair.b) (\(pair.class))")
        }
        #expect(figures.precision == 1)
    }
}
