import Foundation

/// One remembered statement about the user, as stored in a ``KnowledgeBase``.
public struct Fact: Identifiable, Hashable, Sendable, Codable {
    /// The fact's stable identifier. Merges keep the oldest id.
    public var id: Int64
    /// The fact's identity on every replica of its namespace (a lowercase UUID), made where the
    /// fact was first written: a synced device and its server know the fact by it, while each
    /// keeps its own ``id``.
    public var uid: String
    /// Whose memory the fact belongs to.
    public var namespace: String
    /// The identifier of the fact's topic.
    public var topicID: Int64
    /// The display path of the fact's topic, such as `Technology/iOS Development`.
    public var topicPath: String
    /// The statement itself.
    public var content: String
    /// What kind of statement it is.
    public var type: FactType
    /// How much it matters.
    public var importance: Importance
    /// How sure the extractor was, from 0 to 1.
    public var confidence: Double
    /// Inactive facts are kept (and can be reactivated) but hidden from search by default.
    public var isActive: Bool
    /// Where the fact came from, such as conversation ids; merges keep all of them.
    public var sources: [String]
    /// How many times the fact was seen, counting exact duplicates and merged near duplicates.
    public var mentionCount: Int
    /// When the fact was first recorded.
    public var createdAt: Date
    /// When the fact last changed.
    public var updatedAt: Date
    /// When the fact stops being true or wanted: from then on, search and listings leave it out,
    /// and ``KnowledgeBase/purge(now:undoOlderThan:)`` erases it. `nil` keeps it for good.
    public var expiresAt: Date? = nil
    /// A goal's status: ``GoalStatus/active`` unless set; `nil` for any other type.
    public var status: GoalStatus? = nil
    /// How far along a goal is, from 0 to 1 (0 unless set); `nil` for any other type.
    public var progress: Double? = nil
    /// When a goal is due, if it has a date; always `nil` for other types.
    public var targetDate: Date? = nil
    /// When a goal was completed: set when its status becomes ``GoalStatus/completed``, cleared
    /// when it leaves it.
    public var completedAt: Date? = nil
}

/// A fact to add to a knowledge base.
public struct NewFact: Hashable, Sendable {
    /// The statement. Leading and trailing whitespace is trimmed; it must not be empty.
    public var content: String
    /// The topic path; missing topics (and their ancestors) are created.
    public var topicPath: TopicPath
    public var type: FactType
    public var importance: Importance
    /// How sure the extractor was, from 0 to 1.
    public var confidence: Double
    public var sources: [String]
    /// When the fact was first recorded; now when `nil`.
    public var createdAt: Date?
    /// When the fact last changed; ``createdAt`` when `nil`.
    public var updatedAt: Date?
    public var isActive: Bool
    /// When the fact expires (see ``Fact/expiresAt``); `nil` for never.
    public var expiresAt: Date?
    /// A goal's status (``FactType/goal`` only; ``GoalStatus/active`` when `nil`).
    public var status: GoalStatus?
    /// A goal's progress, 0…1 (goals only; 0 when `nil`).
    public var progress: Double?
    /// When a goal is due (goals only).
    public var targetDate: Date?
    /// When a completed goal was completed; the fact's ``updatedAt`` (else ``createdAt``, else
    /// now) when the status is ``GoalStatus/completed`` and this is `nil`.
    public var completedAt: Date?

    /// Creates a fact to add. Defaults: a medium-importance ``FactType/fact`` with confidence 1.
    public init(
        content: String,
        topicPath: TopicPath,
        type: FactType = .fact,
        importance: Importance = .medium,
        confidence: Double = 1,
        sources: [String] = [],
        createdAt: Date? = nil,
        updatedAt: Date? = nil,
        isActive: Bool = true,
        expiresAt: Date? = nil,
        status: GoalStatus? = nil,
        progress: Double? = nil,
        targetDate: Date? = nil,
        completedAt: Date? = nil
    ) {
        self.content = content
        self.topicPath = topicPath
        self.type = type
        self.importance = importance
        self.confidence = confidence
        self.sources = sources
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.isActive = isActive
        self.expiresAt = expiresAt
        self.status = status
        self.progress = progress
        self.targetDate = targetDate
        self.completedAt = completedAt
    }
}

/// A change to a stored fact: every non-nil field replaces the stored value.
public struct FactUpdate: Hashable, Sendable {
    public var content: String?
    public var type: FactType?
    public var importance: Importance?
    public var confidence: Double?
    /// Moves the fact to this topic path, creating it if needed.
    public var topicPath: TopicPath?
    /// A new expiry: `.some(date)` sets it, `.some(nil)` removes it, `nil` leaves it.
    public var expiresAt: Date??
    /// A goal's new status; becoming ``GoalStatus/completed`` sets ``Fact/completedAt`` to now,
    /// leaving it clears it. Refused for a fact that is not (or does not become) a goal.
    public var status: GoalStatus?
    /// A goal's new progress, 0…1.
    public var progress: Double?
    /// A goal's new target date: `.some(date)` sets it, `.some(nil)` removes it, `nil` leaves it.
    public var targetDate: Date??

    /// Creates an update; pass only the fields to change.
    public init(
        content: String? = nil,
        type: FactType? = nil,
        importance: Importance? = nil,
        confidence: Double? = nil,
        topicPath: TopicPath? = nil,
        expiresAt: Date?? = nil,
        status: GoalStatus? = nil,
        progress: Double? = nil,
        targetDate: Date?? = nil
    ) {
        self.content = content
        self.type = type
        self.importance = importance
        self.confidence = confidence
        self.topicPath = topicPath
        self.expiresAt = expiresAt
        self.status = status
        self.progress = progress
        self.targetDate = targetDate
    }

    var isEmpty: Bool {
        content == nil && type == nil && importance == nil && confidence == nil && topicPath == nil && expiresAt == nil
            && status == nil && progress == nil && targetDate == nil
    }

    /// Whether the update sets a goal's field.
    var setsGoalFields: Bool { status != nil || progress != nil || targetDate != nil }
}
