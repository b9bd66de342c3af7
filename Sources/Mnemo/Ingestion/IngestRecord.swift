import Foundation

/// One fact to ingest, as read from a file or handed over by an app.
///
/// The fields mirror the snake_case keys of the input formats; every field but ``content`` is
/// optional, and the mapping rules fill the gaps:
///
/// - **Topic**: ``topic`` (a path such as `Health & Fitness/Running`); else ``category`` title-cased
///   as a top-level topic (`profession` → `Profession`, `health_fitness` → `Health Fitness`); else
///   `General`. In the `topics` format the fact's tree node decides.
/// - **Type**: ``type``; else the category when it names a type (`preference`, `goals`, …);
///   else ``FactType/fact``.
/// - **Confidence**: ``confidence``; else 1, as a record without one was stated, not guessed.
/// - **Importance**: ``importance``; else derived from a given confidence — at least 0.9 is
///   ``Importance/high``, 0.7 ``Importance/medium``, 0.4 ``Importance/low``, below that
///   ``Importance/negligible``; else ``Importance/medium`` (the default of ``NewFact``).
/// - **Dates**: ``createdAt``, else ``updatedAt``, else the time of the ingest; ``updatedAt``, else
///   the creation date. An update before the creation is rejected.
/// - **Namespace**: the knowledge base's own. A record whose ``namespace`` names another is
///   rejected, unless ``IngestOptions/namespacePolicy`` is ``NamespacePolicy/fromRecords``: then
///   ``namespace``, else ``IngestOptions/defaultNamespace``, else the knowledge base's own.
/// - **Goals**: ``status`` (default ``GoalStatus/active``), ``progress`` (default 0, or 1 when
///   completed), ``targetDate`` and ``completedAt`` (default: the record's `updated_at`, else
///   `created_at`, else the ingest's time, when completed) belong to goals; a record of another
///   type that carries one is rejected (`not_a_goal`).
/// - **Lume goals**: a JSON record with a `title` and no `content` is a goal of Lume's
///   (`title`, `description`, `status`, `progress`, `targetDate`, `category`): its content is the
///   title, then `: ` and the description when there is one; its type ``FactType/goal``;
///   `targetDate` is ``targetDate`` and `completedAt` ``completedAt``; `category` the topic as
///   for any record, `Goals` when it has none.
/// - ``isActive`` (default true), ``mentionCount`` (default 1) and ``id`` restore what `export`
///   wrote; the id is reused only where no fact, past or present, had it.
public struct IngestRecord: Hashable, Sendable {
    /// The statement; trimmed, and it must not be empty.
    public var content: String
    /// The topic path.
    public var topic: String?
    /// An extractor's category, such as `profession`: the topic and the type when none is given.
    public var category: String?
    public var type: FactType?
    public var importance: Importance?
    /// From 0 to 1.
    public var confidence: Double?
    /// Where the fact came from; JSON's `source` (a string) and `sources` (an array) both land here.
    public var sources: [String]
    public var namespace: String?
    public var createdAt: Date?
    public var updatedAt: Date?
    public var isActive: Bool?
    public var mentionCount: Int?
    /// When the fact expires (JSON's `expires_at`); see ``Fact/expiresAt``.
    public var expiresAt: Date?
    /// The id the fact had in the knowledge base it was exported from.
    public var id: Int64?
    /// The fact's identity on every replica (JSON's `uid`, see ``Fact/uid``): kept when the
    /// namespace holds no fact with it.
    public var uid: String? = nil
    /// A goal's status (JSON's `status`).
    public var status: GoalStatus?
    /// A goal's progress, 0…1 (JSON's `progress`).
    public var progress: Double?
    /// When a goal is due (JSON's `target_date`, or Lume's `targetDate`).
    public var targetDate: Date?
    /// When a goal was completed (JSON's `completed_at`, or Lume's `completedAt`).
    public var completedAt: Date?

    /// Creates a record; only the content is required.
    public init(
        content: String,
        topic: String? = nil,
        category: String? = nil,
        type: FactType? = nil,
        importance: Importance? = nil,
        confidence: Double? = nil,
        sources: [String] = [],
        namespace: String? = nil,
        createdAt: Date? = nil,
        updatedAt: Date? = nil,
        isActive: Bool? = nil,
        mentionCount: Int? = nil,
        id: Int64? = nil,
        expiresAt: Date? = nil,
        status: GoalStatus? = nil,
        progress: Double? = nil,
        targetDate: Date? = nil,
        completedAt: Date? = nil
    ) {
        self.content = content
        self.topic = topic
        self.category = category
        self.type = type
        self.importance = importance
        self.confidence = confidence
        self.sources = sources
        self.namespace = namespace
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.isActive = isActive
        self.mentionCount = mentionCount
        self.id = id
        self.expiresAt = expiresAt
        self.status = status
        self.progress = progress
        self.targetDate = targetDate
        self.completedAt = completedAt
    }
}
