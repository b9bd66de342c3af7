import Foundation
import Mnemo
import Testing

@testable import MnemoServer

@Suite struct PageRenderingTests {
    @Test func textIsEscapedAndMarkupKept() {
        let hostile = "<script>alert(1)</script> & \"quotes\" 'too'"
        let html: HTML = "<p title=\"\(hostile)\">\(hostile)</p>"
        #expect(
            html.text
                == "<p title=\"&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot; &#39;too&#39;\">"
                + "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot; &#39;too&#39;</p>")
        let inner: HTML = "<b>\("a<b")</b>"
        let outer: HTML = "<p>\(inner)</p>"
        #expect(outer.text == "<p><b>a&lt;b</b></p>")
    }

    @Test func plainTextIsUnchanged() {
        #expect(HTML.escape("Prefers SwiftUI — ünïcödé 🎉") == "Prefers SwiftUI — ünïcödé 🎉")
    }

    @Test func queryValuesArePercentEncoded() {
        var query = PageQuery()
        query.append("q", "tea & coffee+milk")
        query.append("topic", "Health & Fitness/Running")
        query.append("empty", "")
        #expect(query.text == "?q=tea%20%26%20coffee%2Bmilk&topic=Health%20%26%20Fitness%2FRunning")
        #expect(QueryFields(encoded: String(query.text.dropFirst())).get("q") == "tea & coffee+milk")
    }

    @Test func sessionCookieIsHttpOnlyAndStrict() async {
        let sessions = PageSessions()
        let session = await sessions.open(namespace: "alice")
        let header = SessionCookie.setting(session, secure: false)
        #expect(header.contains("HttpOnly"))
        #expect(header.contains("SameSite=Strict"))
        #expect(header.contains("Path=/ui"))
        #expect(SessionCookie.value(in: "a=b; \(SessionCookie.name)=\(session.id); c=d") == session.id)
        #expect(session.id.count == 64 && session.csrfToken.count == 64 && session.id != session.csrfToken)
        #expect(await sessions.session(id: session.id) == session)
        await sessions.close(id: session.id)
        #expect(await sessions.session(id: session.id) == nil)
    }

    @Test func sessionsExpire() async {
        let now = Locked(Date())
        let sessions = PageSessions(clock: { now.withLock { $0 } })
        let session = await sessions.open(namespace: "alice")
        now.withLock { $0 += PageSessions.lifetime + 1 }
        #expect(await sessions.session(id: session.id) == nil)
    }

    @Test func secretsCompareWhole() {
        #expect("abc".constantTimeEquals("abc"))
        #expect(!"abc".constantTimeEquals("abd"))
        #expect(!"abc".constantTimeEquals("abcd"))
    }

    @Test func aFloodOfSignedOutVisitsKeepsAFewSessionsAndEvictsNoSignedInOne() async {
        let sessions = PageSessions()
        let alice = await sessions.open(namespace: "alice")
        var first: PageSession?
        for index in 0..<(PageSessions.anonymousCapacity + 50) {
            let session = await sessions.open()
            if index == 0 { first = session }
        }
        let count = await sessions.count
        #expect(count.anonymous == PageSessions.anonymousCapacity)
        #expect(count.all == PageSessions.anonymousCapacity + 1)
        #expect(await sessions.session(id: alice.id) == alice, "a signed-in session outlives the flood")
        #expect(await sessions.session(id: first?.id) == nil, "the oldest anonymous sessions go first")
    }

    @Test func aFlashIsSaidOnceAndAReceiptIsKeptForItsSession() async throws {
        let sessions = PageSessions()
        let session = await sessions.open(namespace: "alice")
        await sessions.setFlash("Saved.", id: session.id)
        #expect(await sessions.takeFlash(id: session.id)?.flash == "Saved.")
        #expect(await sessions.takeFlash(id: session.id)?.flash == nil)
        let kb = try KnowledgeBase.inMemory(embedder: HashingEmbedder())
        let fact = try await kb.addFact(NewFact(content: "Gone", topicPath: "A")).fact
        let receipt = try await kb.eraseFacts(ids: [fact.id])
        let number = await sessions.keep(receipt, id: session.id)
        #expect(await sessions.receipt(number, id: session.id) == receipt)
        let other = await sessions.open(namespace: "bob")
        #expect(await sessions.receipt(number, id: other.id) == nil, "another session does not see it")
    }

    /// WCAG 2 AA: 4.5:1 for text, 3:1 for the focus ring and the borders of controls, in the
    /// light scheme and in the dark one, read from the stylesheet's custom properties.
    @Test func theColoursPassWCAGAAInBothSchemes() throws {
        let css = PageAssets.stylesheet
        let dark = try #require(css.range(of: "@media (prefers-color-scheme: dark)"))
        let light = Self.colours(String(css[..<dark.lowerBound]))
        let darkColours = light.merging(Self.colours(String(css[dark.upperBound...].prefix(600)))) { $1 }
        let text: [(String, String)] = [
            ("text", "bg"), ("accent", "bg"), ("muted", "bg"), ("danger", "bg"), ("text", "band"), ("accent", "band"),
            ("muted", "band"), ("danger", "button"), ("text", "button"), ("notice-text", "notice"),
            ("accent", "notice"),
            ("text", "mark"), ("text", "badge"), ("accent", "button"),
        ]
        let graphics: [(String, String)] = [("accent", "bg"), ("control", "bg"), ("danger", "bg")]
        for (scheme, colours) in [("light", light), ("dark", darkColours)] {
            for (minimum, pairs) in [(4.5, text), (3.0, graphics)] {
                for (foreground, background) in pairs {
                    let front = try #require(colours[foreground], "\(scheme) --\(foreground)")
                    let back = try #require(colours[background], "\(scheme) --\(background)")
                    let ratio = Self.contrast(front, back)
                    #expect(ratio >= minimum, "\(scheme): --\(foreground) on --\(background) is \(ratio):1")
                }
            }
        }
        #expect(css.contains("[hidden] { display: none !important; }"), "hidden wins over a display rule")
    }

    /// `--name: #rrggbb` declarations.
    static func colours(_ css: String) -> [String: (Double, Double, Double)] {
        var colours: [String: (Double, Double, Double)] = [:]
        let pattern = try! NSRegularExpression(pattern: "--([a-z-]+): #([0-9a-fA-F]{6})")
        for match in pattern.matches(in: css, range: NSRange(css.startIndex..., in: css)) {
            let name = String(css[Range(match.range(at: 1), in: css)!])
            let hex = Int(css[Range(match.range(at: 2), in: css)!], radix: 16)!
            colours[name] = (Double(hex >> 16 & 255), Double(hex >> 8 & 255), Double(hex & 255))
        }
        return colours
    }

    static func contrast(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
        func luminance(_ colour: (Double, Double, Double)) -> Double {
            func channel(_ value: Double) -> Double {
                let c = value / 255
                return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * channel(colour.0) + 0.7152 * channel(colour.1) + 0.0722 * channel(colour.2)
        }
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }
}
