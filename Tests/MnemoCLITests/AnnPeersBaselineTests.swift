import Foundation
import Testing

@testable import Mnemo
@testable import MnemoCLI

/// `mnemo bench`'s `ann_peers`: the peers' script output read into recall and latency against
/// the bench's exact top 10 (no Python runs here).
@Suite("mnemo bench ann_peers")
struct AnnPeersBaselineTests {
    /// Rows 0…5 of the matrix handed over are facts 10, 11, 13, 14, 15, 16 (fact 12 inactive).
    static let rowIDs: [Int64] = [10, 11, 13, 14, 15, 16]

    static let output = Data(
        """
        {"peers": {
          "faiss": {"version": "1.15.1", "index": "IndexHNSWFlat", "build_seconds": 2.0, "build_threads": 2,
            "curve": [
              {"width": 16, "seconds": [0.001, 0.003, 0.002], "top": [[0, 1], [2, -1], [5, 4]]},
              {"width": 64, "seconds": [0.002, 0.004, 0.006], "top": [[0, 1], [2, 3], [4, 5]]}]},
          "usearch": {"error": "ModuleNotFoundError: No module named 'usearch'"}
        }}
        """.utf8)

    /// The exact top ids of the three queries; the last query's list is empty (nothing passed).
    static let exact: [[Int64]] = [[10, 11], [13, 14], []]

    @Test func recallIsTheShareOfTheExactTopFoundMappedThroughTheRows() throws {
        let (report, notes) = try AnnPeersBaseline.report(
            from: Self.output, rowIDs: Self.rowIDs, exact: Self.exact, python: "/venv/bin/python")
        let faiss = try #require(report.peers["faiss"])
        #expect(report.peers.keys.sorted() == ["faiss"])
        #expect(notes == ["usearch did not run: ModuleNotFoundError: No module named 'usearch'"])
        #expect(faiss.version == "1.15.1" && faiss.vectors == 6 && faiss.buildThreads == 2)
        #expect(faiss.buildVectorsPerSecond == 3)
        #expect(faiss.curve.map(\.width) == [16, 64])
        // Width 16: query 1 finds both, query 2 finds 13 of 13 and 14 (faiss's -1 is no row),
        // query 3 has no exact list and is left out.
        #expect(faiss.curve[0].recallAt10 == 0.75)
        #expect(faiss.curve[1].recallAt10 == 1)
        #expect(abs(faiss.curve[0].p50Ms - 2) < 1e-9)
    }

    @Test func aRowOutsideTheMatrixIsAnError() {
        let output = Data(
            #"{"peers": {"faiss": {"version": "1", "build_seconds": 1, "curve": [{"width": 16, "seconds": [0.001], "top": [[6]]}]}}}"#
                .utf8)
        #expect(throws: CLIError.self) {
            try AnnPeersBaseline.report(from: output, rowIDs: Self.rowIDs, exact: [[10]], python: "python3")
        }
    }

    @Test func theJSONKeepsTheKeysScriptsRead() throws {
        let (report, _) = try AnnPeersBaseline.report(
            from: Self.output, rowIDs: Self.rowIDs, exact: Self.exact, python: "python3")
        let data = try JSONEncoder.mnemoOutput(pretty: false).encode(report)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let faiss = try #require(object["faiss"] as? [String: Any])
        #expect((faiss["build_vectors_per_second"] as? NSNumber)?.doubleValue == 3)
        #expect(faiss["version"] as? String == "1.15.1")
        let point = try #require((faiss["curve"] as? [[String: Any]])?.first)
        #expect(Set(point.keys) == ["width", "p50_ms", "p95_ms", "p99_ms", "mean_ms", "recall_at_10"])
    }
}
