import Testing

@testable import Mnemo

@Suite("Topic paths")
struct TopicPathTests {
    @Test func segmentsAreTrimmedAndWhitespaceCollapsed() throws {
        let path = try TopicPath(validating: "  Technology /  iOS   Development ")
        #expect(path.segments == ["Technology", "iOS Development"])
        #expect(path.description == "Technology/iOS Development")
    }

    @Test func matchingIgnoresCaseAndDiacritics() throws {
        #expect(try TopicPath(validating: "Café/Crème Brûlée") == TopicPath(validating: "cafe/CREME BRULEE"))
        // Composed and decomposed accents are the same topic.
        #expect(try TopicPath(validating: "Caf\u{E9}") == TopicPath(validating: "Cafe\u{301}"))
        #expect(try TopicPath(validating: "Running") != TopicPath(validating: "Runner"))
    }

    @Test(arguments: ["a\u{0}b/c", "a/b\u{0}c/d", "x\u{0}"])
    func aNULCharacterIsRefused(path: String) {
        #expect(throws: MnemoError.self) { try TopicPath(path) }
    }

    @Test(arguments: ["", "   ", "/", "a//b", "a/ /b", "/a", "a/"])
    func emptySegmentsAreRejected(_ text: String) {
        #expect(throws: MnemoError.self) { try TopicPath(text) }
    }

    @Test func parentAndDepth() throws {
        let path = try TopicPath(validating: "A/B/C")
        #expect(path.depth == 3)
        #expect(path.parent?.description == "A/B")
        #expect(path.parent?.parent?.parent == nil)
    }
}
