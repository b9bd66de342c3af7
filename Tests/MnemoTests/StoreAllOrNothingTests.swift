import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

@Suite(.storesClosed) struct StoreAllOrNothingTests {
    @Test(arguments: Backend.available) func storesRecordsAndTellsWhatBecameOfEach(on backend: Backend) async throws {
        let kb = try await backend.empty()
        try await kb.addFact(NewFact(content: "Lives in Porto", topicPath: "Home"))
        let outcome = try await kb.storeAllOrNothing([
            IngestRecord(content: "Works as a nurse", category: "profession", confidence: 0.95),
            IngestRecord(content: "lives in porto.", sources: ["c1"]),
            IngestRecord(content: "Works as a nurse"),
        ])
        guard case .stored(let records, _) = outcome else {
            Issue.record("expected stored, got \(outcome)")
            return
        }
        #expect(records.map(\.disposition) == [.added, .unchanged, .unchanged])
        #expect(records[0].fact.topicPath == "Profession")
        #expect(records[0].fact.importance == .high)
        #expect(records[1].fact.content == "Lives in Porto")
        #expect(records[1].fact.sources == ["c1"])
        #expect(records[2].fact.id == records[0].fact.id)
        #expect(try await kb.facts().count == 2)
    }

    @Test(arguments: Backend.available) func storesNothingWhenARecordIsBad(on backend: Backend) async throws {
        let kb = try await backend.empty()
        let outcome = try await kb.storeAllOrNothing([
            IngestRecord(content: "Fine"),
            IngestRecord(content: "   "),
            IngestRecord(content: "Too sure", confidence: 2),
        ])
        guard case .rejected(let rejections) = outcome else {
            Issue.record("expected rejected, got \(outcome)")
            return
        }
        #expect(rejections.map(\.code) == [.emptyContent, .confidenceOutOfRange])
        #expect(rejections.map(\.record) == [2, 3])
        #expect(try await kb.facts().isEmpty)
    }

    @Test(arguments: Backend.available) func readsAnExtractedDocumentWithLinesAndCompletesEachRecord(
        on backend: Backend
    ) async throws {
        let kb = try await backend.empty(namespace: "u1")
        let document = """
            {"user_id": "u1",
             "extracted": [
               {"content": "Has two cats", "category": "pets"},
               {"content": "Bad", "importance": "urgent"}
             ]}
            """
        let rejected = try await kb.storeAllOrNothing(data: Data(document.utf8), format: .extracted) {
            $0.sources.append("conv")
        }
        guard case .rejected(let rejections) = rejected else {
            Issue.record("expected rejected")
            return
        }
        #expect(rejections.map(\.line) == [4])
        #expect(rejections.first?.code == .unknownImportance)

        let good = #"{"extracted": [{"content": "Has two cats", "category": "pets"}]}"#
        guard
            case .stored(let records, _) = try await kb.storeAllOrNothing(
                data: Data(good.utf8), format: .extracted, completing: { $0.sources.append("conv") })
        else {
            Issue.record("expected stored")
            return
        }
        #expect(records.map(\.fact.sources) == [["conv"]])
        #expect(records.map(\.fact.namespace) == ["u1"])
        await #expect(throws: MnemoError.self) {
            try await kb.storeAllOrNothing(data: Data(#"{"extracted": 3}"#.utf8), format: .extracted) { _ in }
        }
    }
}
