import Foundation

/// A fact as sync carries it between a device and its server: its ``Fact/uid`` and every field
/// but the local ids. On the wire its keys are snake_case, dates ISO 8601.
public struct SyncFact: Codable, Hashable, Sendable {
    public var uid: String
    public var content: String
    /// The topic path.
    public var topic: String
    public var type: FactType
    public var importance: Importance
    public var confidence: Double
    public var isActive: Bool
    public var sources: [String]
    public var mentionCount: Int
    public var createdAt: Date
    public var updatedAt: Date
    public var expiresAt: Date?
    public var status: GoalStatus?
    public var progress: Double?
    public var targetDate: Date?
    public var completedAt: Date?
    /// The server's vector for the content (little-endian `Float`s, base64), sent when the
    /// device embeds with the same model; `nil` otherwise.
    public var vector: String?

    init(_ fact: Fact, vector: [Float]? = nil) {
        uid = fact.uid
        content = fact.content
        topic = fact.topicPath
        type = fact.type
        importance = fact.importance
        confidence = fact.confidence
        isActive = fact.isActive
        sources = fact.sources
        mentionCount = fact.mentionCount
        createdAt = fact.createdAt
        updatedAt = fact.updatedAt
        expiresAt = fact.expiresAt
        status = fact.status
        progress = fact.progress
        targetDate = fact.targetDate
        completedAt = fact.completedAt
        self.vector = vector.map { EmbeddingTable.encode($0).base64EncodedString() }
    }

    /// The shipped vector, when it has `dimension` components.
    func decodedVector(dimension: Int) -> [Float]? {
        vector.flatMap { Data(base64Encoded: $0) }.flatMap { EmbeddingTable.decode($0, dimension: dimension) }
    }
}

/// One operation a device made while offline, as it pushes it.
public struct SyncOperation: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// A fact added (or stated again) on the device: the server's duplicate rules decide.
        case add
        /// Fields of a fact changed (``SyncOperation/fields`` names them).
        case update
        /// An undo brought a fact back, or back to an earlier state.
        case restore
        case delete
        case erase
        /// A topic renamed, moved or merged into another: everything at the path
        /// ``SyncOperation/from`` goes to ``SyncOperation/to`` (merged into what is there).
        case moveTopic = "move_topic"
    }

    /// The device's id of the operation: a replayed push is recognised by it.
    public var id: String
    public var kind: Kind
    /// The fact's ``Fact/uid`` (a topic's, for ``Kind/moveTopic``).
    public var uid: String
    /// The fact's state on the device when it was pushed (``Kind/add``, ``Kind/update``,
    /// ``Kind/restore``).
    public var fact: SyncFact?
    /// The fields an update changed: `content`, `type`, `importance`, `confidence`, `topic`,
    /// `is_active`, `expires_at`, `status`, `progress`, `target_date`.
    public var fields: [String]?
    /// A topic move's path before (``Kind/moveTopic``).
    public var from: String?
    /// A topic move's path after.
    public var to: String?
    /// An ``Kind/add`` of a fact the server may know already, offered again by a device that
    /// links a file holding facts or repairs a difference: a known fact counts no mention, and
    /// a fact the server deleted or erased is refused.
    public var offered: Bool?
}

/// The operations a device pushes to its server, in the order it made them.
public struct SyncPushRequest: Codable, Hashable, Sendable {
    /// The device's id (a UUID it made when it first synced).
    public var device: String
    /// The namespace the device syncs: it must be the caller's.
    public var namespace: String
    public var operations: [SyncOperation]
    /// The server identity the device is linked to (``SyncPullResponse/server``); absent
    /// before its first sync. Another server refuses the push before applying anything
    /// (``SyncError/Kind/otherServer``).
    public var server: String?
    /// How many of this device's operations the server said it holds, as the device last
    /// heard (``SyncPushResponse/acknowledged``); absent when it never heard.
    public var acknowledged: Int?
    /// The model of the vectors the operations carry (``SyncFact/vector``): the server stores
    /// them instead of embedding the texts again when it embeds with the same model.
    public var model: EmbeddingModelIdentity?
}

/// What the server did with one pushed operation.
public struct SyncAnswer: Codable, Hashable, Sendable {
    public enum Outcome: String, Codable, Sendable, CaseIterable {
        /// A new fact was stored with the operation's uid.
        case added
        /// A near duplicate of a stored fact: merged into it (``SyncAnswer/uid`` names it).
        case merged
        /// The fact was known already (the same fact, or the same uid): a mention was counted.
        case unchanged
        case updated
        case restored
        case deleted
        case erased
        /// The fact was erased: the operation is refused and nothing comes back.
        case gone
        /// The fact was deleted on the server: a delete wins over an update or an add of it.
        case refused
        /// The server never had a fact with this uid.
        case unknown
    }

    /// The operation's id.
    public var operation: String
    public var outcome: Outcome
    /// The uid of the server's fact the operation ended in: the operation's, or the one its
    /// fact was merged into.
    public var uid: String
}

/// The server's answers to a push, one per operation, in order.
public struct SyncPushResponse: Codable, Hashable, Sendable {
    public var answers: [SyncAnswer]
    /// How many of the device's operations the server holds after this push.
    public var acknowledged: Int?
    /// Whether the device's history went back: the server holds answers to operations of this
    /// device that the device no longer accounts for (a file restored from a backup). The
    /// device then reconciles (reads the whole namespace, offers what the server lacks)
    /// instead of trusting its cursor.
    public var rewound: Bool?
}

/// One change of the server's feed, as a device applies it.
public struct SyncChange: Codable, Hashable, Sendable {
    public var event: ChangeEvent.Kind
    /// The number shared by the changes of one server transaction.
    public var transaction: Int64
    /// The fact's uid (absent for a change of the whole namespace).
    public var uid: String?
    /// The fact as it is on the server now; absent when it no longer exists there.
    public var fact: SyncFact?
    /// A conflict's older fact.
    public var relatedUid: String?
    /// A conflict's reason.
    public var reason: String?
    /// A topic's rename, move or merge (`topic_renamed`, `topic_moved`, `topic_merged`): its
    /// path before, which the device moves to ``to``.
    public var from: String?
    public var to: String?
}

/// A page of the server's changes after a device's cursor.
public struct SyncPullResponse: Codable, Hashable, Sendable {
    /// The server's identity for this namespace: a cursor of another server is refused.
    public var server: String
    public var changes: [SyncChange]
    /// Where to continue (a ``ChangeCursor``'s text).
    public var next: String
    public var hasMore: Bool
    /// On the last page: the digest of the namespace's facts at ``next`` (see <doc:Sync>),
    /// which a device holding everything through ``next`` must match.
    public var digest: String?
    /// Whether the cursor is ahead of the server's feed: the server went back (restored from a
    /// backup). The device reconciles instead of trusting its cursor.
    public var rewound: Bool?
}

/// A conflict between two facts, by uid.
public struct SyncConflict: Codable, Hashable, Sendable {
    public var olderUid: String
    public var newerUid: String
    public var reason: String
    public var similarity: Double
}

/// The whole namespace on the server, for a device's first sync or one whose cursor expired.
public struct SyncSnapshotResponse: Codable, Hashable, Sendable {
    public var server: String
    public var facts: [SyncFact]
    public var conflicts: [SyncConflict]
    /// The uids of facts the namespace erased: a device erases its copies of them.
    public var erased: [String]
    /// Where to follow from (a ``ChangeCursor``'s text).
    public var cursor: String
    /// The digest of ``facts`` (see <doc:Sync>).
    public var digest: String?
}
