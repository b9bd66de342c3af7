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
}
