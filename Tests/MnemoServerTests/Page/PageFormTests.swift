import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Mnemo
import MnemoTestSupport
import Testing

@testable import MnemoServer

/// The fact view's lists, refused forms that come back filled in, post/redirect/get, and the
/// names of repeated buttons.
@Suite struct PageFormTests {
    static func server(_ kb: KnowledgeBase) throws -> MnemoHTTPServer {
        try PageRouteTests.server(kb)
    }

    @Test func aFactsSourcesAndMergedDuplicatesAreListsOfText() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: HashingEmbedder())
        let sourced = try await kb.addFact(
            NewFact(content: "Is allergic to walnuts", topicPath: "Health", sources: ["conv-014", "<b>chat</b>"])
        ).fact
        let bare = try await kb.addFact(NewFact(content: "Plays chess", topicPath: "Games")).fact
        try await Self.server(kb).application().test(.router) { client in
            let browser = PageBrowser(client)
            let page = try await browser.get("/ui/facts/\(sourced.id)").text
            #expect(page.contains("<ul class=\"sources\"><li>conv-014</li><li>&lt;b&gt;chat&lt;/b&gt;</li></ul>"))
            #expect(!page.contains("MnemoServer.HTML") && !page.contains("&lt;li&gt;"))
            let empty = try await browser.get("/ui/facts/\(bare.id)").text
            #expect(empty.contains("<p>No source recorded.</p>"))
            #expect(empty.contains("<p>No duplicate was merged into this fact.</p>"))
            #expect(!empty.contains("&lt;p&gt;"))
        }
    }

    @Test func aRefusedEditComesBackWithWhatWasTyped() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: HashingEmbedder())
        let fact = try await kb.addFact(NewFact(content: "Likes green tea", topicPath: "Food")).fact
        try await Self.server(kb).application().test(.router) { client in
            let browser = PageBrowser(client)
            try await browser.get("/ui/facts/\(fact.id)")
            let refused = try await browser.post(
                "/ui/facts/\(fact.id)/edit",
                [
                    "content": "Likes oolong, not green tea", "type": "fact", "importance": "high", "topic": "Food",
                    "expires_at": "next tuesday",
                ])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.headers[.contentType] == "text/html; charset=utf-8")
            #expect(refused.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
            #expect(refused.text.contains(">Likes oolong, not green tea</textarea>"))
            #expect(refused.text.contains("<option value=\"high\" selected>"))
            #expect(refused.text.contains("value=\"next tuesday\""))
            #expect(refused.text.contains("aria-invalid=\"true\" aria-describedby=\"e-expires-error e-expires-hint\""))
            #expect(refused.text.contains("id=\"e-expires-error\""))
            #expect(try await kb.fact(id: fact.id)?.content == "Likes green tea", "nothing of a refused edit is kept")
            #expect(try await kb.fact(id: fact.id)?.importance == .medium)
        }
    }

    @Test func aWrongConfirmationWordComesBackBesideItsField() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: HashingEmbedder())
        let fact = try await kb.addFact(NewFact(content: "A secret to forget", topicPath: "Private")).fact
        try await Self.server(kb).application().test(.router) { client in
            let browser = PageBrowser(client)
            try await browser.get("/ui/facts/\(fact.id)")
            let erase = try await browser.post("/ui/facts/\(fact.id)/erase", ["confirm": "eras"])
            #expect(erase.status == .unprocessableContent)
            #expect(
                erase.text.contains(
                    "id=\"erase-confirm\" name=\"confirm\" autocomplete=\"off\" required value=\"eras\""))
            #expect(erase.text.contains("id=\"erase-confirm-error\""))
            #expect(try await kb.fact(id: fact.id) != nil)
            let all = try await browser.post("/ui/erase", ["confirm": "not-the-name"])
            #expect(all.status == .unprocessableContent)
            #expect(all.text.contains("value=\"not-the-name\"") && all.text.contains("id=\"erase-name-error\""))
            #expect(try await kb.stats().facts == 1)
        }
    }

    @Test func aRefusedBulkFormComesBackAsItsViewWithItsTicks() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: HashingEmbedder())
        let tea = try await kb.addFact(NewFact(content: "Drinks green tea", topicPath: "Food")).fact
        try await kb.addFact(NewFact(content: "Bakes bread", topicPath: "Food"))
        let food = try #require(try await kb.topic(at: "Food"))
        try await Self.server(kb).application().test(.router) { client in
            let browser = PageBrowser(client)
            let search = try await browser.get("/ui/search?q=tea&mode=text").text
            #expect(search.contains("name=\"back\" value=\"/ui/search?q=tea&amp;mode=text\""))
            let nothing = try await browser.post(
                "/ui/bulk", ["action": "delete", "back": "/ui/search?q=tea&mode=text"])
            #expect(nothing.status == .unprocessableContent)
            #expect(nothing.text.contains("<h1>Search</h1>") && nothing.text.contains("value=\"tea\""))
            #expect(nothing.text.contains("tick at least one fact"))
            let unconfirmed = try await browser.post(
                "/ui/bulk", ["action": "erase", "id": "\(tea.id)", "confirm": "no", "back": "/ui/topics/\(food.id)"])
            #expect(unconfirmed.status == .unprocessableContent)
            #expect(unconfirmed.text.contains("<h1>Food</h1>"))
            #expect(unconfirmed.text.contains("value=\"\(tea.id)\" form=\"bulk\" checked"))
            #expect(unconfirmed.text.contains("id=\"bulk-confirm-error\""))
            #expect(try await kb.fact(id: tea.id) != nil)
        }
    }

    @Test func everySuccessfulPostEndsOnAPageThatCanBeReloaded() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: HashingEmbedder())
        let secret = try await kb.addFact(NewFact(content: "A secret to forget", topicPath: "Private")).fact
        try await kb.addFact(NewFact(content: "Runs on Sundays", topicPath: "Sport"))
        try await kb.addFact(NewFact(content: "Swims on Mondays", topicPath: "Sports"))
        try await Self.server(kb).application().test(.router) { client in
            let browser = PageBrowser(client)
            try await browser.get("/ui/facts/\(secret.id)")
            let erased = try await browser.post("/ui/facts/\(secret.id)/erase", ["confirm": "erase"])
            #expect(erased.status == .seeOther)
            let location = try #require(erased.headers[.location])
            #expect(location.hasPrefix("/ui/receipts/"))
            let receipt = try await browser.get(location)
            #expect(receipt.status == .ok && receipt.text.contains("<h1>Erased</h1>"))
            #expect(receipt.text.contains("<li>#\(secret.id)</li>"), "the receipt lists the ids")
            #expect(try await browser.get(location).status == .ok, "a reload shows the receipt again")

            let merged = try await browser.post("/ui/merge", ["source": "Sport", "into": "Sports"])
            #expect(merged.status == .seeOther)
            let sports = try #require(try await kb.topic(at: "Sports"))
            #expect(merged.headers[.location] == "/ui/topics/\(sports.id)")
            let target = try await browser.get("/ui/topics/\(sports.id)").text
            #expect(target.contains("Moved 1 fact from Sport into Sports."), "the flash says what the merge did")
            #expect(!(try await browser.get("/ui/topics/\(sports.id)").text.contains("Moved 1 fact")), "said once")

            let all = try await browser.post("/ui/erase", ["confirm": kb.namespace])
            #expect(all.status == .seeOther && all.headers[.location]?.hasPrefix("/ui/receipts/") == true)
            #expect(try await kb.stats().facts == 0)
        }
    }

    @Test func aFormAddressOpenedWithGetIsAPage() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: HashingEmbedder())
        let fact = try await kb.addFact(NewFact(content: "Likes green tea", topicPath: "Food")).fact
        try await Self.server(kb).application().test(.router) { client in
            let browser = PageBrowser(client)
            for action in ["edit", "erase", "delete"] {
                let answer = try await browser.get("/ui/facts/\(fact.id)/\(action)")
                #expect(answer.status == .seeOther && answer.headers[.location] == "/ui/facts/\(fact.id)")
            }
            #expect(try await browser.get("/ui/bulk").headers[.location] == "/ui/search")
            let nowhere = try await browser.get("/ui/no/such/view")
            #expect(nowhere.status == .notFound)
            #expect(nowhere.headers[.contentType] == "text/html; charset=utf-8")
            #expect(nowhere.headers[.contentSecurityPolicy] != nil)
            #expect(nowhere.text.contains("<h1>Not Found</h1>"))
        }
    }

    @Test func resolvingAConflictSaysWhatHappenedAndEachButtonNamesItsFact() async throws {
        let embedder = SeededEmbedder(
            dimension: 4,
            pinned: ["Rent is 850 euros a month": [0, 1, 0, 0], "Rent is €950 a month": [0, 0.95, 0.31225, 0]])
        let kb = try KnowledgeBase.inMemory(embedder: embedder)
        try await kb.addFact(NewFact(content: "Rent is 850 euros a month", topicPath: "Home"))
        try await kb.addFact(NewFact(content: "Rent is €950 a month", topicPath: "Home"))
        let conflict = try #require(try await kb.conflicts().first)
        try await Self.server(kb).application().test(.router) { client in
            let browser = PageBrowser(client)
            let page = try await browser.get("/ui/conflicts").text
            #expect(page.contains("Keep the newer<span class=\"vh\"> “Rent is €950 a month”</span>"))
            #expect(page.contains("Keep the older<span class=\"vh\"> “Rent is 850 euros a month”</span>"))
            let resolved = try await browser.post("/ui/conflicts/\(conflict.id)/resolve", ["keep": "newer"])
            #expect(resolved.headers[.location] == "/ui/conflicts")
            let after = try await browser.get("/ui/conflicts").text
            #expect(after.contains("Kept #\(conflict.newer.id) “Rent is €950 a month”."))
            #expect(after.contains("#\(conflict.older.id) “Rent is 850 euros a month” is deactivated"))
        }
    }

    @Test func theSignInPageShowsNoMenuAndFollowsNoFeed() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let browser = PageBrowser(client)
            let form = try await browser.get("/ui/login").text
            #expect(!form.contains("<nav aria-label=\"Sections\">") && !form.contains("Erase all"))
            #expect(!form.contains("data-follow"))
            #expect(form.contains("rel=\"icon\" href=\"/ui/assets/icon.svg\""))
            let icon = try await browser.get("/ui/assets/icon.svg")
            #expect(icon.status == .ok && icon.headers[.contentType] == "image/svg+xml")
            let signedIn = try await PageBrowser.signedIn(client, token: ServerFixture.aliceToken)
            let tree = try await signedIn.get("/ui").text
            #expect(tree.contains("<nav aria-label=\"Sections\">") && tree.contains("data-follow=\"true\""))
        }
    }

    @Test func exportingAnotherUsersFactIsNotFound() async throws {
        let fixture = try await ServerFixture()
        let bobs = try #require(fixture.bob.values.first?.id)
        let alices = try #require(fixture.alice["Runs a marathon every spring"]?.id)
        try await fixture.test { client in
            let browser = try await PageBrowser.signedIn(client, token: ServerFixture.aliceToken)
            try await browser.get("/ui/search")
            #expect(try await browser.post("/ui/export", ["id": "\(bobs)"]).status == .notFound)
            let own = try await browser.post("/ui/export", ["id": "\(alices)"])
            #expect(own.status == .ok && own.text.contains("Runs a marathon every spring"))
            let page = try await browser.get("/ui/export")
            #expect(page.text.contains("href=\"/ui/export.jsonl\"") && page.text.contains("facts in"))
        }
    }

    @Test func countsAreWordedForOneAndMany() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: HashingEmbedder())
        try await kb.addFact(NewFact(content: "Runs on Sundays", topicPath: "Sport"))
        try await kb.addFact(NewFact(content: "Swims on Mondays", topicPath: "Sports"))
        try await kb.addFact(NewFact(content: "Swims on Fridays too", topicPath: "Sports"))
        try await Self.server(kb).application().test(.router) { client in
            let browser = PageBrowser(client)
            let tree = try await browser.get("/ui").text
            #expect(tree.contains(">1 fact</span>") && tree.contains(">2 facts</span>"))
            #expect(!tree.contains("with subtopics"), "a topic without subtopics says its count once")
            let preview = try await browser.get("/ui/merge?source=Sport&into=Sports").text
            #expect(preview.contains("Merging would move 1 fact from Sport into Sports."))
            #expect(!preview.contains("0 duplicates"))
            #expect(preview.contains("Runs on Sundays"), "the preview lists the facts that move")
            #expect(preview.contains("Cancel: back to Sport"))
        }
    }
}
