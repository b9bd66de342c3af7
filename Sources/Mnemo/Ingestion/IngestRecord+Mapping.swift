import Foundation

/// A checked record, ready for `KnowledgeBase.storeBatch`: the fact and its namespace.
typealias PendingFact = (namespace: String, fact: ValidatedFact)

extension IngestRecord {
    /// The topic of records that give neither a topic nor a category.
    static let defaultTopic = "General"

    /// Applies the mapping rules (see ``IngestRecord``) and checks every value.
    /// - Parameters:
    ///   - defaultNamespace: the namespace of a record that names none.
    ///   - pinned: when set, the only namespace a record may name; others are rejected.
    ///   - nodeTopic: in the `topics` format, the topic of the fact's tree node (or why it is bad);
    ///     it replaces the record's own topic and category.
    ///   - topics: the topic paths this ingest already resolved.
    func pending(
        defaultNamespace: String, pinned: String? = nil, nodeTopic: Result<TopicPath, RecordProblem>? = nil,
        topics: inout TopicPathCache
    ) throws(RecordProblem) -> PendingFact {
        let content = try Self.checked(content: content)
        if let confidence { try Self.check(confidence: confidence) }
        let topicPath = if let nodeTopic { try nodeTopic.get() } else { try topics.path(of: self) }
        let namespace = namespace ?? defaultNamespace
        guard !TextNormalization.trimmed(namespace).isEmpty else {
            throw RecordProblem(.wrongFieldType, #""namespace" must not be empty"#)
        }
        if let pinned, namespace != pinned {
            throw RecordProblem(
                .foreignNamespace,
                #"namespace "\#(namespace)" is not this ingest's ("\#(pinned)"); records choose their namespace only when the ingest allows it"#
            )
        }
        if let createdAt, let updatedAt, updatedAt < createdAt {
            throw RecordProblem(
                .badDate,
                "updated_at \(Timestamp.format(updatedAt)) is before created_at \(Timestamp.format(createdAt))")
        }
        var fact = ValidatedFact(
            content: content, topicPath: topicPath, type: resolvedType, importance: resolvedImportance,
            confidence: confidence ?? 1, sources: sources, createdAt: createdAt ?? updatedAt,
            updatedAt: updatedAt, isActive: isActive ?? true)
        fact.mentionCount = mentionCount ?? 1
        fact.preferredID = id
        fact.uid = uid
        fact.expiresAt = expiresAt
        if let progress, !(progress.isFinite && (0...1).contains(progress)) {
            throw RecordProblem(.progressOutOfRange, "progress must be a number from 0 to 1, got \(progress)")
        }
        if resolvedType == .goal {
            let status = status ?? .active
            fact.status = status
            fact.progress = progress ?? (status == .completed ? 1 : 0)
            fact.targetDate = targetDate
            fact.completedAt = status == .completed ? completedAt ?? updatedAt ?? createdAt : nil
        } else if let field = [
            status.map { _ in "status" }, progress.map { _ in "progress" }, targetDate.map { _ in "target_date" },
            completedAt.map { _ in "completed_at" },
        ].compactMap({ $0 }).first {
            throw RecordProblem(.notAGoal, "only a goal has a \(field); this record is a \(resolvedType.rawValue)")
        }
        return (namespace, fact)
    }

    /// The topic path: the topic, else the title-cased category, else ``defaultTopic``.
    func resolvedTopic() throws(RecordProblem) -> TopicPath {
        if let topic { return try Self.topicPath(topic, field: "topic") }
        if let category {
            return try Self.topicPath(Self.topicName(forCategory: category), field: "category", given: category)
        }
        return TopicPath(validSegments: [Self.defaultTopic])
    }

    var resolvedType: FactType {
        type ?? category.flatMap(Self.type(forCategory:)) ?? .fact
    }

    var resolvedImportance: Importance {
        importance ?? confidence.map(Self.importance(forConfidence:)) ?? .medium
    }

    /// `profession` → `Profession`, `health_fitness` → `Health Fitness`: underscores become
    /// spaces and each word starts with a capital; the rest of each word is kept as written.
    static func topicName(forCategory category: String) -> String {
        category.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.replacingOccurrences(of: "_", with: " ")
                .split(whereSeparator: \.isWhitespace)
                .map { $0.prefix(1).uppercased() + $0.dropFirst() }
                .joined(separator: " ")
        }.joined(separator: "/")
    }

    /// The type a category names, singular or plural (`goal`, `Goals`), if any.
    static func type(forCategory category: String) -> FactType? {
        if let type = FactType(parsing: category) { return type }
        let name = category.trimmingCharacters(in: .whitespaces).lowercased()
        return name.hasSuffix("s") ? FactType(rawValue: String(name.dropLast())) : nil
    }

    /// The importance an extractor's confidence implies: ≥ 0.9 high, ≥ 0.7 medium, ≥ 0.4 low, else none.
    static func importance(forConfidence confidence: Double) -> Importance {
        switch confidence {
        case 0.9...: .high
        case 0.7...: .medium
        case 0.4...: .low
        default: .negligible
        }
    }

    static func topicPath(_ text: String, field: String, given: String? = nil) throws(RecordProblem) -> TopicPath {
        switch TopicPath.parse(text) {
        case .success(let segments):
            return TopicPath(validSegments: segments)
        case .failure(let problem):
            throw RecordProblem(.badTopic, #"bad \#(field) "\#(given ?? text)": \#(problem.reason)"#)
        }
    }
}

extension ValidatedFact {
    /// A fact whose values were already checked, as ingest does record by record.
    init(
        content: String, topicPath: TopicPath, type: FactType, importance: Importance, confidence: Double,
        sources: [String], createdAt: Date?, updatedAt: Date?, isActive: Bool
    ) {
        self.content = content
        self.contentKey = TextNormalization.factKey(content)
        self.topicPath = topicPath
        self.type = type
        self.importance = importance
        self.confidence = confidence
        // `source` and `sources` may both name the same conversation: keep each once.
        self.sources = SourceList.merging([], sources.filter { !$0.isEmpty })
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.isActive = isActive
    }
}

/// The topic paths an ingest already resolved, by the text they came from: inputs repeat a few
/// dozen topics over thousands of records, and parsing a path folds every segment.
struct TopicPathCache {
    private var paths: [String: Result<TopicPath, RecordProblem>] = [:]
    /// Past this many distinct texts, new ones are resolved without being kept.
    private let capacity = 10_000

    mutating func path(of record: IngestRecord) throws(RecordProblem) -> TopicPath {
        let key =
            if let topic = record.topic {
                "topic\u{1F}" + topic
            } else if let category = record.category {
                "category\u{1F}" + category
            } else {
                ""
            }
        if let path = paths[key] { return try path.get() }
        let path = Result { () throws(RecordProblem) in try record.resolvedTopic() }
        if paths.count < capacity { paths[key] = path }
        return try path.get()
    }
}
