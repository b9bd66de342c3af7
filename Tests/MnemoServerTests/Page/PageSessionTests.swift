import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Mnemo
import Testing

@testable import MnemoServer

@Suite struct PageSessionTests {
    @Test func aTokenIsExchangedOnceForASessionCookie() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let browser = PageBrowser(client)
            let first = try await browser.get("/ui")
            #expect(first.status == .seeOther)
            #expect(first.headers[.location] == "/ui/login")
            let form = try await browser.get("/ui/login")
            #expect(form.status == .ok)
            let anonymous = try #require(browser.cookie)
            let wrong = try await browser.post("/ui/login", ["token": "not-a-token"])
            #expect(wrong.status == .unauthorized)
            #expect(wrong.text.contains("not valid"))
            let signIn = try await browser.post("/ui/login", ["token": ServerFixture.aliceToken])
            #expect(signIn.status == .seeOther)
            let setCookie = try #require(signIn.headers[.setCookie])
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"))
            // A new id on sign-in: a session planted before it is worth nothing.
            #expect(browser.cookie != anonymous)
            let tree = try await browser.get("/ui")
            #expect(tree.status == .ok)
            #expect(tree.text.contains("Signed in as alice"))
            #expect(tree.text.contains("Technology"))
            #expect(!tree.text.contains("Music"), "bob's topic")
            try await browser.post("/ui/logout", [:])
            #expect(try await browser.get("/ui").status == .seeOther)
        }
    }

    @Test func everyPageCarriesTheSecurityHeaders() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let browser = try await PageBrowser.signedIn(client, token: ServerFixture.aliceToken)
            for uri in ["/ui", "/ui/login", "/ui/search?q=swift", "/ui/facts/999999", "/ui/stats"] {
                let page = try await browser.get(uri)
                #expect(page.headers[.xFrameOptions] == "DENY", "\(uri)")
                let policy = try #require(page.headers[.contentSecurityPolicy], "\(uri)")
                #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"))
                #expect(policy.contains("frame-ancestors 'none'"))
                #expect(page.headers[.cacheControl] == "no-store")
            }
        }
    }

    @Test func aFormWithoutTheSessionsTokenIsRefused() async throws {
        let fixture = try await ServerFixture()
        let id = try #require(fixture.alice["Runs a marathon every spring"]?.id)
        try await fixture.test { client in
            let browser = try await PageBrowser.signedIn(client, token: ServerFixture.aliceToken)
            try await browser.get("/ui/facts/\(id)")
            let missing = try await browser.post("/ui/facts/\(id)/deactivate", [:], csrf: .some(nil))
            #expect(missing.status == .forbidden)
            let forged = try await browser.post(
                "/ui/facts/\(id)/deactivate", [:], csrf: String(repeating: "0", count: 64))
            #expect(forged.status == .forbidden)
            #expect(try await fixture.knowledgeBase.inNamespace("alice").fact(id: id)?.isActive == true)
            let real = try await browser.post("/ui/facts/\(id)/deactivate", [:])
            #expect(real.status == .seeOther)
            #expect(try await fixture.knowledgeBase.inNamespace("alice").fact(id: id)?.isActive == false)
        }
    }

    @Test func anotherUsersFactIsNotFound() async throws {
        let fixture = try await ServerFixture()
        let bobs = try #require(fixture.bob["Plays the cello in an orchestra"]?.id)
        try await fixture.test { client in
            let browser = try await PageBrowser.signedIn(client, token: ServerFixture.aliceToken)
            let view = try await browser.get("/ui/facts/\(bobs)")
            #expect(view.status == .notFound)
            #expect(!view.text.contains("cello"))
            #expect(try await browser.post("/ui/facts/\(bobs)/delete", [:]).status == .notFound)
            #expect(try await browser.post("/ui/facts/\(bobs)/erase", ["confirm": "erase"]).status == .notFound)
            #expect(try await fixture.knowledgeBase.inNamespace("bob").fact(id: bobs) != nil)
        }
    }

    @Test func readOnlyShowsNoActionsAndRefusesPosts() async throws {
        let fixture = try await ServerFixture(page: .readOnly)
        let id = try #require(fixture.alice["Runs a marathon every spring"]?.id)
        try await fixture.test { client in
            let browser = try await PageBrowser.signedIn(client, token: ServerFixture.aliceToken)
            let view = try await browser.get("/ui/facts/\(id)")
            #expect(view.status == .ok)
            #expect(!view.text.contains("action=\"/ui/facts/\(id)/"))
            #expect(view.text.contains("Read-only"))
            for uri in ["/ui/facts/\(id)/delete", "/ui/facts/\(id)/edit", "/ui/undo", "/ui/erase", "/ui/bulk"] {
                #expect(
                    try await browser.post(uri, ["id": String(id), "action": "delete"]).status == .forbidden, "\(uri)")
            }
            #expect(try await fixture.knowledgeBase.inNamespace("alice").fact(id: id) != nil)
            let export = try await browser.post("/ui/export", ["id": String(id)])
            #expect(export.status == .ok)
        }
    }

    @Test func uiOffServesNothing() async throws {
        let fixture = try await ServerFixture(page: .off)
        try await fixture.test { client in
            let tree = try await PageBrowser(client).get("/ui")
            let login = try await PageBrowser(client).get("/ui/login")
            #expect(tree.status == .notFound && login.status == .notFound)
        }
    }

    @Test func theEventStreamIsTheUsersFeedBehindTheSession() async throws {
        let fixture = try await ServerFixture()
        let alice = try fixture.knowledgeBase.inNamespace("alice")
        let origin = alice.feedOrigin
        _ = try await alice.pruneChanges(olderThan: Date().addingTimeInterval(60), keeping: 1)
        try await fixture.test { client in
            #expect(try await PageBrowser(client).get("/ui/events").status == .seeOther)
            let browser = try await PageBrowser.signedIn(client, token: ServerFixture.aliceToken)
            // The stream's cursor check reaches alice's feed: her pruned origin is gone.
            #expect(try await browser.get("/ui/events?since=\(origin)").status == .gone)
            #expect(try await browser.get("/ui/events?since=nope").status == .badRequest)
        }
    }
}
