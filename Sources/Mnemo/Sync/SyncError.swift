import Foundation

/// Why a sync failed, in classes an app can act on (see <doc:Sync>).
///
/// An app switches on ``kind``: ``Kind/unauthorized`` and ``Kind/forbidden`` ask the user to
/// sign in again, ``Kind/unreachable``, ``Kind/timedOut`` and ``Kind/serverError`` retry later,
/// ``Kind/incompatibleServer`` asks for an update, ``Kind/otherServer`` asks before re-linking
/// (``SyncOptions/relinks``), ``Kind/diverged`` is reported (<doc:Sync> has the whole example).
///
/// What a sync did before it failed stays done: the operations the server answered are no
/// longer waiting, the pages pulled are stored, and the next sync carries on from there.
public struct SyncError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The class of a sync failure.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The server refused the credentials (HTTP 401): sign in again, get a new token.
        case unauthorized
        /// The credentials are not allowed this namespace (HTTP 403).
        case forbidden
        /// The server could not be reached (no network, no route, refused connection).
        case unreachable
        /// The server did not answer within the transport's timeout.
        case timedOut
        /// The server failed or is unavailable for now (HTTP 5xx, 429): retry later.
        case serverError = "server_error"
        /// The server does not speak this version's sync (no sync routes, an answer that does
        /// not read as sync): update the app or the server.
        case incompatibleServer = "incompatible_server"
        /// The file is linked to another server: sync with that one, or re-link on purpose
        /// (``SyncOptions/relinks``).
        case otherServer = "other_server"
        /// The device and the server still hold different facts after a repair: nothing was
        /// lost, and the report of a later sync says whether it mended.
        case diverged
    }

    public var kind: Kind
    /// What happened, for a person (and a log).
    public var reason: String
    /// The HTTP status the server answered, when it answered.
    public var status: Int?

    public init(_ kind: Kind, reason: String, status: Int? = nil) {
        self.kind = kind
        self.reason = reason
        self.status = status
    }

    public var description: String { "sync failed (\(kind.rawValue)): \(reason)" }
    public var errorDescription: String? { description }
}
