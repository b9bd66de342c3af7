import Foundation
import Testing

@testable import Mnemo

/// A topic path from run-time text throws with a reason; an invalid literal stops the program
/// with the reason printed, also where an optimised build would drop a precondition's message.
@Suite("Topic path literals and run-time text")
struct TopicPathLiteralTests {
    @Test func runTimeTextThrowsTheReason() {
        let text = "Health & Fitness/Running/"
        #expect(
            throws: MnemoError.invalidInput(
                field: "topicPath", reason: #""Health & Fitness/Running/": it has an empty segment"#)
        ) {
            try TopicPath(text)
        }
    }

    @Test func validatingThrowsEvenForALiteral() {
        #expect(
            throws: MnemoError.invalidInput(
                field: "topicPath", reason: #""Health & Fitness/Running/": it has an empty segment"#)
        ) {
            try TopicPath(validating: "Health & Fitness/Running/")
        }
        #expect(throws: MnemoError.invalidInput(field: "topicPath", reason: #""  ": the path is empty"#)) {
            try TopicPath(validating: "  ")
        }
    }

    @Test func validatingAndTheLiteralAgreeOnGoodPaths() throws {
        let literal: TopicPath = " Health  &  Fitness /Running"
        #expect(try TopicPath(validating: " Health  &  Fitness /Running") == literal)
        #expect(literal.segments == ["Health & Fitness", "Running"])
    }

    @Test func theLiteralFailureNamesTheLiteralAndTheReason() {
        let message = TopicPath.invalidLiteralMessage("a//b", TopicPath.Problem(reason: "it has an empty segment"))
        #expect(message == #"invalid topic path literal "a//b": it has an empty segment"#)
    }

    @Test func anInvalidLiteralStopsWithItsReasonPrinted() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TopicPath(stringLiteral: "Health & Fitness/Running/")
        }
        let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(printed.contains(#"invalid topic path literal "Health & Fitness/Running/": it has an empty segment"#))
    }
}
