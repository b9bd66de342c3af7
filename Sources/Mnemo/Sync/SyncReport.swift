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
}

/// What ``KnowledgeBase/syncStatus()`` says about a namespace's sync.
public struct SyncStatus: Hashable, Sendable, Codable {
    /// Whether the namespace was ever synced from this file.
    public var isLinked: Bool
    /// This device's id, once linked.
    public var device: String?
    /// Local changes waiting to be pushed.
    public var waiting: Int
    /// When the last sync finished.
    public var lastSync: Date?
    /// The server position pulled through.
    public var cursor: String?
}
