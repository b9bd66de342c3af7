import Foundation
import JWTKit

/// How the server learns a request's user, which is the namespace it may read and change.
package enum Authentication: Sendable {
    /// No credentials: a request's user is the one its path or body names, else the default
    /// namespace. Allowed on a loopback host only.
    case none
    /// Opaque bearer tokens, each mapped to one namespace; `factLimits` holds the tokens whose
    /// line sets their own fact limit (a plan), which overrides the server's.
    case tokens([String: String], factLimits: [String: TokenFactLimit] = [:])
    /// HS256 JSON Web Tokens whose `sub` claim is the namespace. A token is refused before its
    /// `nbf` and after its `exp`; one without `exp` is refused unless `requiresExpiry` is false
    /// (an operator's explicit choice of long-lived tokens: a leaked one is valid forever).
    case jwt(JWTKeyCollection, requiresExpiry: Bool)

    /// Whether requests must carry a bearer token.
    package var requiresToken: Bool {
        if case .none = self { return false }
        return true
    }

    /// The namespace a bearer token grants, or `nil` when the token is not valid.
    package func namespace(forBearer token: String) async -> String? {
        await grant(forBearer: token)?.namespace
    }

    /// What a bearer token grants: its namespace and, when its tokens-file line sets one, its
    /// own fact limit; `nil` when the token is not valid.
    package func grant(forBearer token: String) async -> (namespace: String, factLimit: TokenFactLimit?)? {
        switch self {
        case .none:
            return nil
        case .tokens(let namespaces, let factLimits):
            return namespaces[token].map { ($0, factLimits[token]) }
        case .jwt(let keys, let requiresExpiry):
            guard let payload = try? await keys.verify(token, as: NamespaceClaims.self) else { return nil }
            if requiresExpiry, payload.exp == nil { return nil }
            let subject = payload.sub.value.trimmingCharacters(in: .whitespacesAndNewlines)
            if let limit = payload.factLimit, limit < 0 { return nil }
            return subject.isEmpty ? nil : (subject, payload.factLimit.map { TokenFactLimit($0) })
        }
    }
}

/// The claims Mnemo reads from a JWT: the subject (the namespace), the expiry, the time before
/// which the token is not valid yet, and optionally `fact_limit`, the user's plan: the most facts
/// the namespace may hold (a negative limit makes the token invalid; absent, the server's applies).
package struct NamespaceClaims: JWTPayload {
    package var sub: SubjectClaim
    package var exp: ExpirationClaim?
    package var nbf: NotBeforeClaim?
    package var factLimit: Int?

    private enum CodingKeys: String, CodingKey {
        case sub, exp, nbf
        case factLimit = "fact_limit"
    }

    /// How far the issuer's clock may run ahead of the server's: a token issued with `nbf` set to
    /// its issuing time is accepted at once, one whose `nbf` is further ahead is not.
    package static let clockSkew: TimeInterval = 60

    package init(sub: String, exp: Date? = nil, nbf: Date? = nil, factLimit: Int? = nil) {
        self.sub = SubjectClaim(value: sub)
        self.factLimit = factLimit
        self.exp = exp.map { ExpirationClaim(value: $0) }
        self.nbf = nbf.map { NotBeforeClaim(value: $0) }
    }

    package func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp?.verifyNotExpired()
        try nbf?.verifyNotBefore(currentDate: Date().addingTimeInterval(Self.clockSkew))
    }
}

/// A server that cannot start as configured: an unusable credentials file, an unsafe setup.
package struct ServerSetupError: Error, CustomStringConvertible {
    package var description: String
}

/// A token's own fact limit, from its tokens-file line: `fact-limit=N`, or `fact-limit=none` for
/// no limit whatever the server's.
package struct TokenFactLimit: Sendable, Hashable {
    /// The most facts the token's namespace may hold, or `nil` for no limit.
    package var limit: Int?

    package init(_ limit: Int?) {
        self.limit = limit
    }
}

extension Authentication {
    /// Reads a tokens file: one `TOKEN NAMESPACE [fact-limit=N]` line per token; blank lines and
    /// lines starting with `#` are skipped. `fact-limit=N` gives the token's namespace its own
    /// fact limit (its plan), `fact-limit=none` no limit, overriding `mnemo serve --fact-limit`.
    package static func tokens(fromFile path: String) throws -> Authentication {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ServerSetupError(description: "cannot read the tokens file \(path): \(error.localizedDescription)")
        }
        return try tokens(parsing: text, file: path)
    }

    /// Parses the text of a tokens file; `file` names it in errors.
    package static func tokens(parsing text: String, file: String) throws -> Authentication {
        var namespaces: [String: String] = [:]
        var factLimits: [String: TokenFactLimit] = [:]
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let fields = line.split(whereSeparator: \.isWhitespace)
            if fields.isEmpty || fields[0].hasPrefix("#") { continue }
            guard fields.count == 2 || fields.count == 3 else {
                throw ServerSetupError(
                    description:
                        "\(file) line \(offset + 1): expected `TOKEN NAMESPACE [fact-limit=N]`, found \(fields.count) fields"
                )
            }
            if fields.count == 3 {
                guard let limit = TokenFactLimit(parsing: fields[2]) else {
                    throw ServerSetupError(
                        description:
                            "\(file) line \(offset + 1): expected `fact-limit=N` (a whole number, 0 or more) or `fact-limit=none`, found `\(fields[2])`"
                    )
                }
                factLimits[String(fields[0])] = limit
            }
            let token = String(fields[0])
            if let other = namespaces[token], other != String(fields[1]) {
                throw ServerSetupError(
                    description: "\(file) line \(offset + 1): the token is already given to \"\(other)\"")
            }
            namespaces[token] = String(fields[1])
        }
        guard !namespaces.isEmpty else {
            throw ServerSetupError(description: "\(file) holds no `TOKEN NAMESPACE` lines")
        }
        return .tokens(namespaces, factLimits: factLimits)
    }

    /// Reads an HS256 secret from a file (surrounding whitespace is ignored).
    package static func jwt(secretFile path: String, requiresExpiry: Bool = true) async throws -> Authentication {
        let secret: String
        do {
            secret = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw ServerSetupError(
                description: "cannot read the JWT secret file \(path): \(error.localizedDescription)")
        }
        return try await jwt(secret: secret, requiresExpiry: requiresExpiry)
    }

    /// Verifies HS256 tokens signed with `secret`; with `requiresExpiry`, only those with an `exp`.
    package static func jwt(secret: String, requiresExpiry: Bool = true) async throws -> Authentication {
        guard secret.utf8.count >= 16 else {
            throw ServerSetupError(
                description: "the JWT secret is \(secret.utf8.count) bytes; use at least 16 (32 random bytes is usual)")
        }
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        return .jwt(keys, requiresExpiry: requiresExpiry)
    }
}

extension TokenFactLimit {
    /// Reads `fact-limit=N` or `fact-limit=none`.
    init?(parsing field: Substring) {
        let prefix = "fact-limit="
        guard field.hasPrefix(prefix) else { return nil }
        let value = field.dropFirst(prefix.count)
        if value == "none" {
            self.init(nil)
        } else if let limit = Int(value), limit >= 0 {
            self.init(limit)
        } else {
            return nil
        }
    }
}
