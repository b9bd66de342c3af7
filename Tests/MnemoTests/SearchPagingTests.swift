import Foundation
import Testing

@testable import Mnemo

/// A page far beyond the results is empty in every mode, and costs no more memory than the
/// results themselves (it once reserved a heap of offset + limit rows: 48 GB at offset 10⁹).
@Suite struct SearchPagingTests {
    @Test(arguments: SearchMode.allCases)
    func aPageFarBeyondTheResultsIsEmpty(mode: SearchMode) async throws {
        let kb = try KnowledgeBase.inMemory(embedder: HashingEmbedder())
        try await kb.addFact(NewFact(content: "Runs a marathon every spring", topicPath: "Health"))
        let far = try await kb.search(
            SearchQuery("marathon", mode: mode, limit: 500, offset: SearchParameters.maximumOffset))
        #expect(far.isEmpty)
        let first = try await kb.search(SearchQuery("marathon", mode: mode, limit: 500))
        #expect(first.count == 1)
    }
}
