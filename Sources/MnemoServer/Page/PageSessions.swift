import Foundation
import HTTPTypes
import Hummingbird
import Mnemo

/// A browser's session on the memory page: whose memory it shows and the token its forms carry.
package struct PageSession: Sendable, Equatable {
    /// The cookie's value: 256 random bits, hex.
    package var id: String
    /// The token every form of the session carries (CSRF): 256 random bits, hex, not the id, so
    /// that a page's markup never holds the cookie's secret.
    package var csrfToken: String
    /// The namespace a signed-in session shows; `nil` before sign-in, and always when the server
    /// has no authentication (the page then shows `mnemo serve --namespace`).
    package var namespace: String?
    /// The fact limit of the token the session was opened with, when its line sets one.
    package var factLimit: TokenFactLimit?
    package var expiresAt: Date
    /// What the last action did, said once by the next view the session opens (post, redirect,
    /// get: the result is on a page that can be reloaded).
    package var flash: String?

    /// Whether the session carries a user's grant.
    package var isSignedIn: Bool { namespace != nil }
}

/// The page's sessions, held in memory: a restart signs everyone out, which is what a token
/// exchanged once for a cookie should mean on a server that keeps no credentials on disk.
package actor PageSessions {
    /// How long a session lasts from its opening; the token it came from may live longer, but a
    /// browser left open should not keep someone's memory on screen forever.
    package static let lifetime: TimeInterval = 8 * 3600
    /// The most sessions held; the oldest go first when more open.
    package static let capacity = 10_000
    /// The most sessions held that nobody signed in to (every first visit opens one, so that the
    /// sign-in form carries a CSRF token): a flood of anonymous visits evicts only the oldest
    /// anonymous sessions, never a signed-in one.
    package static let anonymousCapacity = 1_000
    /// The erasure receipts a session keeps for its receipt pages, the newest last.
    package static let receiptsKept = 20

    private var sessions: [String: PageSession] = [:]
    /// The ids of the sessions nobody signed in to, oldest first.
    private var anonymous: [String] = []
    private var receipts: [String: [(number: Int, receipt: ErasureReceipt)]] = [:]
    private var receiptCount = 0
    private let clock: @Sendable () -> Date

    package init(clock: @escaping @Sendable () -> Date = Date.init) {
        self.clock = clock
    }

    /// How many sessions are held, and how many of them are anonymous.
    package var count: (all: Int, anonymous: Int) { (sessions.count, anonymous.count) }

    /// The live session with this cookie value, or `nil` (unknown or expired).
    package func session(id: String?) -> PageSession? {
        guard let id, let session = sessions[id] else { return nil }
        guard session.expiresAt > clock() else {
            close(id: id)
            return nil
        }
        return session
    }

    /// A new session, signed in when `namespace` is given.
    package func open(namespace: String? = nil, factLimit: TokenFactLimit? = nil) -> PageSession {
        let now = clock()
        if namespace == nil, anonymous.count >= Self.anonymousCapacity {
            let evicted = anonymous.count - Self.anonymousCapacity + 1
            for id in anonymous.prefix(evicted) { sessions[id] = nil }
            anonymous.removeFirst(evicted)
        }
        if sessions.count >= Self.capacity {
            sessions = sessions.filter { $0.value.expiresAt > now }
            if sessions.count >= Self.capacity, let oldest = sessions.values.min(by: { $0.expiresAt < $1.expiresAt }) {
                sessions[oldest.id] = nil
            }
            let live = Set(sessions.keys)
            anonymous.removeAll { !live.contains($0) }
            receipts = receipts.filter { live.contains($0.key) }
        }
        let session = PageSession(
            id: Self.randomToken(), csrfToken: Self.randomToken(), namespace: namespace, factLimit: factLimit,
            expiresAt: now.addingTimeInterval(Self.lifetime))
        sessions[session.id] = session
        if namespace == nil { anonymous.append(session.id) }
        return session
    }

    /// Keeps `message` for the next view the session opens.
    package func setFlash(_ message: String, id: String) {
        sessions[id]?.flash = message
    }

    /// The session with its flash, which is then forgotten.
    package func takeFlash(id: String) -> PageSession? {
        guard let session = sessions[id] else { return nil }
        sessions[id]?.flash = nil
        return session
    }

    /// Keeps an erasure's receipt for the session's receipt page; returns its number.
    package func keep(_ receipt: ErasureReceipt, id: String) -> Int {
        receiptCount += 1
        receipts[id, default: []].append((receiptCount, receipt))
        if let kept = receipts[id], kept.count > Self.receiptsKept {
            receipts[id] = Array(kept.suffix(Self.receiptsKept))
        }
        return receiptCount
    }

    /// The receipt the session kept with this number.
    package func receipt(_ number: Int, id: String) -> ErasureReceipt? {
        receipts[id]?.first { $0.number == number }?.receipt
    }

    /// Ends the session with this cookie value.
    package func close(id: String) {
        if sessions.removeValue(forKey: id)?.isSignedIn == false { anonymous.removeAll { $0 == id } }
        receipts[id] = nil
    }

    /// 256 bits from the system's cryptographically secure generator, as hex.
    private static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}

/// The session cookie: its name, how it is set and read.
enum SessionCookie {
    static let name = "mnemo_session"

    /// `HttpOnly` (scripts never read it), `SameSite=Strict` (no other site's page sends it),
    /// scoped to the page's paths; `Secure` when the page is served over HTTPS.
    static func setting(_ session: PageSession, secure: Bool) -> String {
        "\(name)=\(session.id); Path=/ui; HttpOnly; SameSite=Strict; Max-Age=\(Int(PageSessions.lifetime))"
            + (secure ? "; Secure" : "")
    }

    /// Whether the browser reached the page over HTTPS: `mnemo serve` itself speaks plain HTTP,
    /// so only a TLS proxy in front of it can say so, with `X-Forwarded-Proto`.
    static func isHTTPS(_ request: Request) -> Bool {
        request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased() == "https"
    }

    static let clearing = "\(name)=; Path=/ui; HttpOnly; SameSite=Strict; Max-Age=0"

    /// The session id a `Cookie` header carries.
    static func value(in header: String?) -> String? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}

extension String {
    /// Whether two secrets are equal, in a time that does not depend on where they first differ.
    func constantTimeEquals(_ other: String) -> Bool {
        let (a, b) = (Array(utf8), Array(other.utf8))
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
