import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Mnemo
import Testing

@testable import MnemoServer

/// `GET /v1/users/{user_id}/changes`: the change feed as JSON pages, long-polled.
@Suite struct ChangeRouteTests {
    @Test func pagesFollowFromAnyCursor() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let all = try await client.send(.get, "/v1/users/alice/changes?limit=1000").object()
            let changes = try #require(all["changes"] as? [[String: Any]])
            #expect(changes.filter { $0["event"] as? String == "fact_added" }.count == 4)
            #expect(all["has_more"] as? Bool == false)
            // Bob's facts are not in Alice's feed.
            #expect(
                !changes.contains { (($0["fact"] as? [String: Any])?["content"] as? String)?.contains("cello") == true }
            )
            let next = try #require(all["next_cursor"] as? String)

            let patch = try await client.send(
                .patch, "/api/facts/\(fixture.alice["Runs a marathon every spring"]!.id)",
                json: #"{"importance": "high"}"#)
            #expect(patch.status == .ok)
            let after = try await client.send(.get, "/v1/users/alice/changes?since=\(next)").object()
            let update = try #require((after["changes"] as? [[String: Any]])?.first)
            #expect(update["event"] as? String == "fact_updated")
            #expect(update["fields"] as? [String] == ["importance"])
            #expect((update["fact"] as? [String: Any])?["importance"] as? String == "high")
        }
    }

    @Test func badRequestsGetTheirCode() async throws {
        let fixture = try await ServerFixture()
        let aliceCursor = try await fixture.knowledgeBase.inNamespace("alice").currentCursor()
        let bobCursor = try await fixture.knowledgeBase.inNamespace("bob").currentCursor()
        try await fixture.test { client in
            for (uri, code) in [
                ("/v1/users/alice/changes?since=banana", "invalid_cursor"),
                ("/v1/users/alice/changes?since=\(bobCursor)", "invalid_cursor"),
                ("/v1/users/alice/changes?wait=61", "invalid_wait"),
                ("/v1/users/alice/changes?wait=-1", "invalid_wait"),
                ("/v1/users/alice/changes?limit=0", "invalid_limit"),
                ("/v1/users/alice/changes?limit=1001", "invalid_limit"),
                ("/api/events?since=nope", "invalid_cursor"),
            ] {
                let response = try await client.send(.get, uri)
                #expect(response.status == .badRequest, "\(uri)")
                #expect(try response.errorCode() == code, "\(uri)")
            }
            #expect(try await client.send(.get, "/v1/users/bob/changes").status == .forbidden)
            #expect(try await client.send(.get, "/v1/users/alice/changes", token: nil).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/users/alice/changes?since=\(aliceCursor)").status == .ok)
        }
    }

    @Test func anExpiredCursorIsGone() async throws {
        let fixture = try await ServerFixture()
        let alice = try fixture.knowledgeBase.inNamespace("alice")
        let origin = alice.feedOrigin
        _ = try await alice.pruneChanges(olderThan: Date().addingTimeInterval(60), keeping: 1)
        try await fixture.test { client in
            let response = try await client.send(.get, "/v1/users/alice/changes?since=\(origin)")
            #expect(response.status == .gone)
            #expect(try response.errorCode() == "cursor_expired")
            let stream = try await client.send(.get, "/api/events?since=\(origin)")
            #expect(stream.status == .gone)
        }
    }

    @Test func aLongPollAnswersWhenAChangeComes() async throws {
        let fixture = try await ServerFixture()
        let alice = try fixture.knowledgeBase.inNamespace("alice")
        let cursor = try await alice.currentCursor()
        try await fixture.test { client in
            let writer = Task {
                try await Task.sleep(for: .milliseconds(300))
                try await alice.addFact(NewFact(content: "Arrived during the poll", topicPath: "Profession"))
            }
            let started = ContinuousClock.now
            let page = try await client.send(.get, "/v1/users/alice/changes?since=\(cursor)&wait=60").object()
            try await writer.value
            // Well before the wait's end, however loaded the machine running the tests.
            #expect(ContinuousClock.now - started < .seconds(45))
            let events = try #require(page["changes"] as? [[String: Any]])
            #expect(events.map { $0["event"] as? String } == ["fact_added"])
            // With nothing to say, the poll answers an empty page when the wait is over.
            let next = try #require(page["next_cursor"] as? String)
            let quiet = try await client.send(.get, "/v1/users/alice/changes?since=\(next)&wait=1").object()
            #expect((quiet["changes"] as? [Any])?.isEmpty == true)
            #expect(quiet["next_cursor"] as? String == next)
        }
    }

    @Test func listingsSayWhichCursorTheyReflect() async throws {
        let fixture = try await ServerFixture()
        let alice = try fixture.knowledgeBase.inNamespace("alice")
        try await fixture.test { client in
            for uri in ["/api/topics", "/v1/users/alice/facts", "/api/topics/search?q=marathon", "/api/topics/stats"] {
                let response = try await client.send(.get, uri)
                let header = try #require(response.headers[HTTPField.Name("Mnemo-Cursor")!], "\(uri)")
                #expect(try alice.cursor(header) == (try await alice.currentCursor()), "\(uri)")
            }
        }
    }
}
