import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// Options an app fills in from user input are checked where they are used, with a reason,
/// never by stopping the program.
@Suite("Invalid options")
struct InvalidOptionsTests {
    @Test(arguments: [0, -3])
    func anIngestBatchOfNoRecordsIsRefusedWithAReason(_ batchSize: Int) async throws {
        let kb = try TestKnowledgeBase.empty()
        var options = IngestOptions(format: .jsonl, strict: true)
        options.batchSize = batchSize
        await #expect(
            throws: MnemoError.invalidInput(
                field: "batchSize", reason: "\(batchSize) is not a number of records (at least 1)")
        ) {
            try await kb.ingest(data: Data(#"{"topic": "Food", "content": "Likes tea"}"#.utf8), options: options)
        }
        await #expect(throws: MnemoError.self) {
            try await kb.ingest(data: Data(), options: IngestOptions(batchSize: batchSize))
        }
        #expect(try await kb.stats().facts == 0)
    }

    @Test func aNegativeCacheCapacityTurnsTheCacheOff() async throws {
        let cache = CachingEmbedder(HashingEmbedder(dimension: 8), capacity: -1)
        #expect(cache.capacity == 0)
        _ = try await cache.embed(["tea"])
        _ = try await cache.embed(["tea"])
        #expect(cache.statistics.hits == 0)
    }
}
