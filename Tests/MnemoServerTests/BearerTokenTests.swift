import Foundation
import Testing

@testable import MnemoServer

@Suite struct BearerTokenTests {
    @Test func readsTheTokenAfterTheScheme() {
        #expect(AuthMiddleware.bearerToken("Bearer tok-alice") == "tok-alice")
        #expect(AuthMiddleware.bearerToken("  bEaReR \t tok-alice\u{00A0} ") == "tok-alice")
        #expect(AuthMiddleware.bearerToken("Bearer tok alice") == "tok alice")
        #expect(AuthMiddleware.bearerToken("Basic dXNlcjpwYXNz") == nil)
        #expect(AuthMiddleware.bearerToken("Bearer") == nil)
        #expect(AuthMiddleware.bearerToken("Bearer   ") == nil)
        #expect(AuthMiddleware.bearerToken("Bearer\ttok") == nil)
        #expect(AuthMiddleware.bearerToken(nil) == nil)
    }

    /// The reading by scalars gives what splitting, lowercasing and Foundation's trimming gave,
    /// on headers drawn from the characters that decide it.
    @Test func readsAsSplittingAndTrimmingRead() {
        func reference(_ header: String) -> String? {
            let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
            let token = parts[1].trimmingCharacters(in: .whitespaces)
            return token.isEmpty ? nil : token
        }
        let pieces = [
            " ", " ", "\t", "\n", "\u{00A0}", "\u{2003}", "\u{3000}", "Bearer", "bearer", "BEARER", "Bear", "é",
            "tok", "-", "K", "\u{212A}",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...6, using: &generator)
            let header = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(AuthMiddleware.bearerToken(header) == reference(header), "\(header.debugDescription)")
        }
    }
}
