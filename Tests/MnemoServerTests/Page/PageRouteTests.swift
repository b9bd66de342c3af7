import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Mnemo
import MnemoTestSupport
import Testing

@testable import MnemoServer

@Suite struct PageRouteTests {
    /// A server without auth (loopback) over `kb`, whose page shows `default`.
    static func server(_ kb: KnowledgeBase, page: PageMode = .on) throws -> MnemoHTTPServer {
        try MnemoHTTPServer(
            knowledgeBase: kb, configuration: ServerConfiguration(port: 0, page: page), authentication: .none)
    }

    @Test func theTreeShowsEveryTopicWithItsCounts() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let browser = try await PageBrowser.signedIn(client, token: ServerFixture.aliceToken)
            let page = try await browser.get("/ui").text
            for node in try await fixture.knowledgeBase.inNamespace("alice").topicTree() {
                #expect(page.contains("<a href=\"/ui/topics/\(node.topic.id)\">\(HTML.escape(node.topic.name))</a>"))
                let own = PageRenderer.count(node.factCount, "fact")
                let count =
                    node.subtreeFactCount == node.factCount ? own : "\(own), \(node.subtreeFactCount) with subtopics"
                #expect(page.contains("<span class=\"count\">\(count)</span>"))
            }
            #expect(page.contains("<main id=\"main\"") && page.contains("<nav aria-label=\"Sections\">"))
        }
    }

    @Test func aHostileFactIsShownAsText() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: HashingEmbedder())
        let hostile = try await kb.addFact(
            NewFact(content: "<script>alert(1)</script><img src=x onerror=alert(2)>", topicPath: "<b>Evil</b>")
        ).fact
        try await Self.server(kb).application().test(.router) { client in
            let browser = PageBrowser(client)
            for uri in [
                "/ui", "/ui/facts/\(hostile.id)", "/ui/search?q=alert", "/ui/search?topic=%3Cb%3EEvil%3C%2Fb%3E",
            ] {
                let page = try await browser.get(uri).text
                #expect(!page.contains("<script>alert"), "\(uri)")
                #expect(!page.contains("<img src=x"), "\(uri)")
                #expect(!page.contains("<b>Evil"), "\(uri)")
            }
            let fact = try await browser.get("/ui/facts/\(hostile.id)").text
            #expect(fact.contains("&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"))
        }
    }

    @Test func searchTakesTheSharedFiltersAndExplainsEachHit() async throws {
        let fixture = try await ServerFixture()
        let alice = fixture.alice
        try await fixture.test { client in
            let browser = try await PageBrowser.signedIn(client, token: ServerFixture.aliceToken)
            let page = try await browser.get("/ui/search?q=swiftui&mode=text").text
            let swiftUI = try #require(alice["Prefers SwiftUI over UIKit"])
            #expect(page.contains("<a href=\"/ui/facts/\(swiftUI.id)\">Prefers SwiftUI over UIKit</a>"))
            #expect(page.contains("<mark>SwiftUI</mark>"))
            #expect(page.contains("BM25"))
            #expect(page.contains("type=\"search\""))
            let goals = try await browser.get("/ui/search?type=goal&mode=&importance=").text
            #expect(goals.contains("Wants to learn Rust this year"))
            #expect(!goals.contains("Prefers SwiftUI over UIKit"))
            let wrong = try await browser.get("/ui/search?type=opinion")
            #expect(wrong.status == .badRequest)
            #expect(wrong.text.contains("unknown type"))
        }
    }

    @Test func longListsArePaged() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: HashingEmbedder())
        let facts = (1...120).map { NewFact(content: "Numbered fact \($0) of the long list", topicPath: "Long") }
        _ = try await kb.addFacts(facts)
        let topic = try #require(try await kb.topic(at: "Long"))
        try await Self.server(kb).application().test(.router) { client in
            let browser = PageBrowser(client)
            let first = try await browser.get("/ui/topics/\(topic.id)").text
            #expect(first.components(separatedBy: "data-key=\"fact-").count - 1 == PageRoutes.pageSize)
            #expect(first.contains("rel=\"next\""))
            let last = try await browser.get("/ui/topics/\(topic.id)?offset=100").text
            #expect(last.components(separatedBy: "data-key=\"fact-").count - 1 == 20)
            #expect(!last.contains("rel=\"next\"") && last.contains("rel=\"prev\""))
            let search = try await browser.get("/ui/search?topic=Long&offset=50").text
            #expect(search.components(separatedBy: "data-key=\"fact-").count - 1 == PageRoutes.pageSize)
        }
    }

    @Test func editDeleteAndUndoGoThroughTheLibrary() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: HashingEmbedder())
        let fact = try await kb.addFact(NewFact(content: "Likes green tea", topicPath: "Food")).fact
        try await Self.server(kb).application().test(.router) { client in
            let browser = PageBrowser(client)
            try await browser.get("/ui/facts/\(fact.id)")
            let edit = try await browser.post(
                "/ui/facts/\(fact.id)/edit",
                [
                    "content": "Likes jasmine tea", "type": "preference", "importance": "high", "topic": "Food/Drinks",
                    "expires_at": "2030-01-01T00:00:00Z",
                ])
            #expect(edit.status == .seeOther)
            let edited = try #require(try await kb.fact(id: fact.id))
            #expect(edited.content == "Likes jasmine tea" && edited.type == .preference && edited.importance == .high)
            #expect(edited.topicPath == "Food/Drinks" && edited.expiresAt == Timestamp.parse("2030-01-01T00:00:00Z"))
            #expect(try await browser.get("/ui/facts/\(fact.id)").text.contains("importance: medium → high"))
            let delete = try await browser.post("/ui/facts/\(fact.id)/delete", [:])
            #expect(delete.headers[.location] == "/ui/undo?deleted=\(fact.id)")
            #expect(try await kb.fact(id: fact.id) == nil)
            let undoPage = try await browser.get("/ui/undo?deleted=\(fact.id)").text
            #expect(undoPage.contains("Deleted fact #\(fact.id)"))
            let operation = try #require(try await kb.operations().first)
            try await browser.post("/ui/undo", ["operation": String(operation.id)])
            #expect(try await kb.fact(id: fact.id)?.content == "Likes jasmine tea")
        }
    }

    @Test func conflictsAreSettledByKeepingOneOrBoth() async throws {
        let embedder = SeededEmbedder(
            dimension: 4,
            pinned: [
                "I prefer hiking to cycling": [1, 0, 0, 0],
                "These days I'd pick cycling over hiking": [0.93, 0.36756, 0, 0],
                "Rent is 850 euros a month": [0, 1, 0, 0],
                "Rent is €950 a month": [0, 0.95, 0.31225, 0],
            ])
        let kb = try KnowledgeBase.inMemory(embedder: embedder)
        for (content, type) in [
            ("I prefer hiking to cycling", FactType.preference), ("Rent is 850 euros a month", .fact),
            ("These days I'd pick cycling over hiking", .preference), ("Rent is €950 a month", .fact),
        ] {
            try await kb.addFact(NewFact(content: content, topicPath: "Life", type: type))
        }
        let conflicts = try await kb.conflicts()
        #expect(conflicts.count == 2)
        try await Self.server(kb).application().test(.router) { client in
            let browser = PageBrowser(client)
            let page = try await browser.get("/ui/conflicts").text
            #expect(page.contains("Rent is €950 a month") && page.contains("Keep both"))
            try await browser.post("/ui/conflicts/\(conflicts[0].id)/resolve", ["keep": "newer"])
            #expect(try await kb.fact(id: conflicts[0].older.id)?.isActive == false)
            #expect(try await kb.fact(id: conflicts[0].newer.id)?.isActive == true)
            try await browser.post("/ui/conflicts/\(conflicts[1].id)/resolve", ["keep": "both"])
            #expect(try await kb.conflicts().isEmpty)
            #expect(try await kb.fact(id: conflicts[1].older.id)?.isActive == true)
            #expect(try await browser.post("/ui/conflicts/99999/resolve", ["keep": "both"]).status == .notFound)
        }
    }

    @Test func erasureNeedsTypedConfirmationAndShowsTheReceipt() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: HashingEmbedder())
        let fact = try await kb.addFact(NewFact(content: "A secret to forget", topicPath: "Private")).fact
        try await kb.addFact(NewFact(content: "Another thing", topicPath: "Other"))
        try await Self.server(kb).application().test(.router) { client in
            let browser = PageBrowser(client)
            try await browser.get("/ui/facts/\(fact.id)")
            let unconfirmed = try await browser.post("/ui/facts/\(fact.id)/erase", ["confirm": "yes"])
            #expect(unconfirmed.status == .unprocessableContent)
            #expect(try await kb.fact(id: fact.id) != nil)
            let erased = try await browser.post("/ui/facts/\(fact.id)/erase", ["confirm": "erase"])
            #expect(erased.status == .seeOther)
            let receipt = try await browser.get(erased.headers[.location] ?? "")
            #expect(receipt.status == .ok && receipt.text.contains("Receipt"))
            #expect(try await kb.tombstone(ofFact: fact.id) != nil)
            #expect(try await browser.get("/ui/facts/\(fact.id)").status == .gone)
            #expect(try await browser.post("/ui/erase", ["confirm": "not-the-name"]).status == .unprocessableContent)
            let erasedAll = try await browser.post("/ui/erase", ["confirm": kb.namespace])
            let all = try await browser.get(erasedAll.headers[.location] ?? "")
            #expect(all.status == .ok && all.text.contains("namespace_erased"))
            #expect(try await kb.stats().facts == 0)
        }
    }

    @Test func exportIsWhatTheLibraryExports() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: HashingEmbedder())
        let first = try await kb.addFact(NewFact(content: "First thing", topicPath: "A")).fact
        try await kb.addFact(NewFact(content: "Second thing", topicPath: "B"))
        try await kb.addFact(NewFact(content: "Third thing", topicPath: "C"))
        var lines: [String] = []
        for try await line in kb.exportedLines() { lines.append(line) }
        let expected = lines
        try await Self.server(kb).application().test(.router) { client in
            let browser = PageBrowser(client)
            let all = try await browser.get("/ui/export.jsonl")
            #expect(all.text == expected.map { $0 + "\n" }.joined())
            #expect(all.headers[.contentDisposition]?.contains("attachment") == true)
            try await browser.get("/ui/search")
            let selected = try await browser.post("/ui/export", ["id": "\(first.id)"])
            #expect(selected.text == expected[0] + "\n")
        }
    }

    @Test func mergeShowsThePreviewBeforeItMerges() async throws {
        let kb = try KnowledgeBase.inMemory(embedder: HashingEmbedder())
        try await kb.addFact(NewFact(content: "Runs on Sundays", topicPath: "Sport"))
        try await kb.addFact(NewFact(content: "Swims on Mondays", topicPath: "Sports"))
        try await Self.server(kb).application().test(.router) { client in
            let browser = PageBrowser(client)
            let preview = try await browser.get("/ui/merge?source=Sport&into=Sports")
            #expect(preview.text.contains("Merging would move 1 fact from Sport"))
            #expect(try await kb.topic(at: "Sport") != nil)
            let merged = try await browser.post("/ui/merge", ["source": "Sport", "into": "Sports"])
            #expect(merged.status == .seeOther)
            #expect(try await browser.get(merged.headers[.location] ?? "").text.contains("Moved 1 fact from Sport"))
            #expect(try await kb.topic(at: "Sport") == nil)
        }
    }

    @Test func pageRoutesAreHTMLOutsideTheAPIDocument() async throws {
        let fixture = try await ServerFixture()
        let routes = fixture.server.router().routes.map(\.path.description)
        let page = routes.filter { $0 == "/ui" || $0.hasPrefix("/ui/") || $0 == "ui" || $0.hasPrefix("ui/") }
        #expect(page.count == 40)
        let document = String(decoding: OpenAPIDocument.data, as: UTF8.self)
        #expect(!document.contains("\"/ui"))
    }
}
