import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

@Suite("Namespaces")
struct NamespaceTests {
    @Test func nothingCrossesNamespaces() async throws {
        let alice = try TestKnowledgeBase.empty(namespace: "alice")
        let bob = try alice.inNamespace("bob")
        let aliceFact = try await alice.addFact(NewFact(content: "Likes climbing", topicPath: "Hobbies")).fact
        let bobFact = try await bob.addFact(NewFact(content: "Likes climbing", topicPath: "Hobbies")).fact

        // The same content is a separate fact in each namespace, under a separate topic.
        #expect(aliceFact.id != bobFact.id)
        #expect(aliceFact.topicID != bobFact.topicID)
        #expect(bobFact.mentionCount == 1)

        // Reads never see the other namespace.
        #expect(try await alice.search("climbing").map(\.fact.id) == [aliceFact.id])
        #expect(try await bob.fact(id: aliceFact.id) == nil)
        await #expect(throws: MnemoError.notFound(.fact(aliceFact.id))) { try await bob.history(ofFact: aliceFact.id) }
        #expect(try await alice.stats().facts == 1)

        // Writes by id never reach the other namespace.
        await #expect(throws: MnemoError.notFound(.fact(aliceFact.id))) { try await bob.deleteFact(id: aliceFact.id) }
        await #expect(throws: MnemoError.notFound(.fact(aliceFact.id))) {
            try await bob.updateFact(id: aliceFact.id, FactUpdate(content: "hacked"))
        }
        await #expect(throws: MnemoError.notFound(.fact(aliceFact.id))) {
            try await bob.deactivateFact(id: aliceFact.id)
        }
        try await bob.deleteTopic("Hobbies", cascade: true)
        #expect(try await alice.fact(id: aliceFact.id)?.content == "Likes climbing")
        #expect(try await alice.topic(at: "Hobbies") != nil)
        #expect(try await alice.namespaces() == ["alice"])
    }

    @Test func emptyNamespaceIsRejected() throws {
        #expect(
            throws: MnemoError.invalidInput(
                field: "namespace", reason: "\" \" is empty; a namespace names whose memory it is")
        ) { try KnowledgeBase.inMemory(namespace: " ") }
        for blank in ["", "\t\n", "\u{3000}", " \u{2028}\u{85}"] {
            #expect(throws: MnemoError.self) { try KnowledgeBase.inMemory(namespace: blank) }
        }
        _ = try KnowledgeBase.inMemory(namespace: "\u{3000}alice")
    }

    /// Blank is what `trimmingCharacters(in: .whitespacesAndNewlines)` leaves empty, for every
    /// scalar.
    @Test func blankTextIsWhatFoundationTrimsAway() {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(Character(scalar))
            if text.isBlank != text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                Issue.record("U+\(String(value, radix: 16, uppercase: true))")
            }
        }
    }
}
