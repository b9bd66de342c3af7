import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// The ids facts and topics keep on every replica: well-formed, unique, and in the order they
/// were made, so that the namespace's uid index grows at its end during an ingest.
@Suite struct StableIDTests {
    @Test func newFactsGetVersion7UUIDsInTheOrderTheyWereMade() async throws {
        let kb = try TestKnowledgeBase.empty()
        let before = UInt64(Date().timeIntervalSince1970 * 1000)
        var uids: [String] = []
        for index in 0..<200 {
            uids.append(try await kb.addFact(NewFact(content: "Fact number \(index)", topicPath: "Ids")).fact.uid)
        }
        #expect(Set(uids).count == uids.count)
        for uid in uids {
            #expect(UUID(uuidString: uid) != nil, "\(uid)")
            #expect(uid == uid.lowercased())
            #expect(Array(uid)[14] == "7", "version 7: \(uid)")
            #expect("89ab".contains(Array(uid)[19]), "RFC 9562 variant: \(uid)")
        }
        // The first 48 bits are the milliseconds of the write: never decreasing.
        let times = uids.map { UInt64($0.replacingOccurrences(of: "-", with: "").prefix(12), radix: 16)! }
        #expect(times == times.sorted())
        let after = UInt64(Date().timeIntervalSince1970 * 1000)
        #expect(times.allSatisfy { (before...after).contains($0) })
    }

    /// A topic's id derives from its path, so every version must make the same one: these were
    /// made by the version that introduced them (a device and a server of different versions
    /// would otherwise name one topic twice).
    @Test func derivedIdsAreTheSameInEveryVersion() {
        #expect(StableID.topic(namespace: "default", pathKey: "health") == "7a40a365-0c5d-8a81-954e-49f9744eb4b0")
        #expect(
            StableID.topic(namespace: "default", pathKey: "health/running") == "5cc55bb3-e3b5-82f9-85e6-c45bfea3c72c")
        #expect(
            StableID.formatted(high: 0x0123_4567_89ab_cdef, low: 0xfedc_ba98_7654_3210)
                == "01234567-89ab-cdef-fedc-ba9876543210")
    }
}
