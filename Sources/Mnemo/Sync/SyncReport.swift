import Foundation

/// What one ``KnowledgeBase/sync(with:options:progress:)`` did.
public struct SyncReport: Hashable, Sendable, Codable {
    /// Operations of this device the server took.
    public var pushed = 0
    /// Changes of the server applied here.
    public var pulled = 0
    /// Facts added here that the server found already known, or merged into a fact it had.
    public var merged = 0
    /// Conflicts between facts the server found and this device now holds too.
    public var conflicts = 0
    /// Operations refused because their fact was erased (on this device or elsewhere).
    public var gone = 0
    /// Operations refused because their fact was deleted on the server (a delete wins over an
    /// edit), or is unknown to it.
    public var refused = 0
    /// Facts erased here because they were erased elsewhere.
    public var erased = 0
    /// Whether the device read the server's whole namespace (its first sync, or a cursor older
    /// than the server's feed window) and replaced its copy.
    public var replacedFromSnapshot = false
    /// The server position this device has pulled through.
    public var cursor = ""
    /// Whether this file went back since its last sync (restored from a backup), as the
    /// server noticed: the device reconciled with the server instead of trusting its cursor.
    public var deviceWentBack = false
    /// Whether the server went back (restored from a backup): the device offered it what it
    /// lacks instead of trusting its cursor.
    public var serverWentBack = false
    /// Whether the device's facts and the server's were found the same at the end (their
    /// digests compared equal, see ``SyncDigest``). `false` when local writes made during the
    /// sync wait to be pushed: the next sync compares.
    public var verified = false
    /// Facts that differed between the device and the server after pushing and pulling, and
    /// were mended (offered to the server, or taken from it). Zero when the replicas agreed.
    public var repaired = 0

    public init() {}
}

/// Where a sync is, for a progress display.
public struct SyncProgress: Hashable, Sendable {
    public enum Phase: String, Sendable {
        case pushing, pulling, snapshot
    }

    public var phase: Phase
    /// Operations pushed or changes pulled so far.
    public var done: Int
    /// How many the phase has in all, when known: the operations waiting when pushing
    /// started, the facts of a snapshot; `nil` while pulling (the server's feed says only
    /// whether more follows).
    public var total: Int?
}

/// What ``KnowledgeBase/syncStatus()`` says about a namespace's sync.
public struct SyncStatus: Hashable, Sendable, Codable {
    /// Whether the namespace was ever synced from this file.
    public var isLinked: Bool
    /// This device's id, once linked.
    public var device: String?
    /// Local changes (outbox operations) waiting to be pushed.
    public var waiting: Int
    /// The distinct facts those operations concern: a fact added then edited twice is three
    /// operations of one fact.
    public var waitingFacts: Int
    /// When the last sync finished.
    public var lastSync: Date?
    /// The server position pulled through.
    public var cursor: String?
}
