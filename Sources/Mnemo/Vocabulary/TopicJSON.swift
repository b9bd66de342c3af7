/// A node of the topic tree as every front door writes it: `id`, `uid`, `name`, `path`, `fact_count`
/// (its own facts), `subtree_fact_count` (with its subtopics') and `children`.
package struct TopicNodeJSON: Encodable, Sendable {
    var id: Int64
    var uid: String
    var name: String
    var path: String
    var factCount: Int
    var subtreeFactCount: Int
    var children: [TopicNodeJSON]

    package init(_ node: TopicNode) {
        id = node.topic.id
        uid = node.topic.uid
        name = node.topic.name
        path = node.topic.path
        factCount = node.factCount
        subtreeFactCount = node.subtreeFactCount
        children = node.children.map(TopicNodeJSON.init)
    }
}

/// One topic with its facts and its subtopics one level down: `mnemo topic --json`, `:topic` in
/// the REPL, `GET /api/topics/{id}`, the MCP `show_topic` tool.
///
/// Keys: `id`, `uid`, `name`, `path`, `parent_id`, `fact_count`, `subtree_fact_count`, `children`,
/// `subtopics` (the children's paths) and `facts`. `children` holds objects (`id`, `name`, `path`,
/// `fact_count`, `subtree_fact_count`) so that a client can follow their ids — except on the
/// command line, whose `children` has listed paths since its first version and keeps doing so
/// (``ChildrenForm/paths``).
package struct TopicDetailJSON: Encodable, Sendable {
    /// How `children` is written.
    package enum ChildrenForm: Sendable {
        case objects
        case paths
    }

    struct Child: Encodable, Sendable {
        var id: Int64
        var name: String
        var path: String
        var factCount: Int
        var subtreeFactCount: Int
    }

    var id: Int64
    var uid: String
    var name: String
    var path: String
    var parentId: Int64?
    var factCount: Int
    var subtreeFactCount: Int
    var children: [Child]
    /// Facts of the topic and its subtopics, most important and newest first.
    var facts: [FactJSON]
    var childrenForm: ChildrenForm

    package init(_ node: TopicNode, facts: [Fact], children childrenForm: ChildrenForm = .objects) {
        id = node.topic.id
        uid = node.topic.uid
        name = node.topic.name
        path = node.topic.path
        parentId = node.topic.parentID
        factCount = node.factCount
        subtreeFactCount = node.subtreeFactCount
        children = node.children.map {
            Child(
                id: $0.topic.id, name: $0.topic.name, path: $0.topic.path,
                factCount: $0.factCount, subtreeFactCount: $0.subtreeFactCount)
        }
        self.facts = facts.map(FactJSON.init)
        self.childrenForm = childrenForm
    }

    private enum CodingKeys: String, CodingKey {
        case id, uid, name, path, parentId, factCount, subtreeFactCount, children, subtopics, facts
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(uid, forKey: .uid)
        try container.encode(name, forKey: .name)
        try container.encode(path, forKey: .path)
        try container.encodeIfPresent(parentId, forKey: .parentId)
        try container.encode(factCount, forKey: .factCount)
        try container.encode(subtreeFactCount, forKey: .subtreeFactCount)
        switch childrenForm {
        case .objects: try container.encode(children, forKey: .children)
        case .paths: try container.encode(children.map(\.path), forKey: .children)
        }
        try container.encode(children.map(\.path), forKey: .subtopics)
        try container.encode(facts, forKey: .facts)
    }
}

extension [TopicNode] {
    /// The node with this topic id, searched depth first.
    package func node(id: Int64) -> TopicNode? {
        for node in self {
            if node.topic.id == id { return node }
            if let found = node.children.node(id: id) { return found }
        }
        return nil
    }
}

extension KnowledgeBase {
    /// The topic at `path` (matched as ``topic(at:)`` matches) as the front doors show it: its
    /// node in the tree and its facts and its subtopics' that pass `activity`, at most `limit`.
    /// - Throws: ``MnemoError/notFound(_:)`` when no topic is at `path`.
    package func topicDetail(
        at path: TopicPath, activity: FactFilter.Activity = .activeOnly, limit: Int
    ) async throws -> (node: TopicNode, facts: [Fact]) {
        guard let topic = try await topic(at: path), let node = try await topicTree().node(id: topic.id) else {
            throw MnemoError.notFound(.topic(path.description))
        }
        return (node, try await topicDetailFacts(node, activity: activity, limit: limit))
    }

    /// The topic with this id, as ``topicDetail(at:activity:limit:)``.
    package func topicDetail(
        id: Int64, activity: FactFilter.Activity = .activeOnly, limit: Int
    ) async throws -> (node: TopicNode, facts: [Fact])? {
        guard let node = try await topicTree().node(id: id) else { return nil }
        return (node, try await topicDetailFacts(node, activity: activity, limit: limit))
    }

    private func topicDetailFacts(_ node: TopicNode, activity: FactFilter.Activity, limit: Int) async throws -> [Fact] {
        try await facts(matching: FactFilter(topicPath: TopicPath(node.topic.path), activity: activity), limit: limit)
    }
}
