import Foundation
import GRDB

/// A topic operation as a device pushes it and its server replays it: everything at the path
/// `from` (its facts and subtopics) goes to the path `to`. A rename, a move and a merge are all
/// this: the topic is relocated when nothing is at `to`, and merged into what is there
/// otherwise. The server decides what it moved; devices pull the moved facts' states.
struct SyncTopicMove: Sendable {
    var from: String
    var to: String

    /// The move a topic's history row records: a rename or a move (`from`, `to`), or the merged
    /// side of a merge (`from`, `into`); `nil` for any other row.
    init?(kind: ChangeEvent.Kind, details: [String: String]) {
        switch kind {
        case .topicRenamed, .topicMoved:
            guard let from = details["from"], let to = details["to"] else { return nil }
            (self.from, self.to) = (from, to)
        case .topicMerged:
            guard let from = details["from"], let into = details["into"] else { return nil }
            (self.from, self.to) = (from, into)
        default:
            return nil
        }
    }

    init(from: String, to: String) {
        (self.from, self.to) = (from, to)
    }

    /// Checks both paths; `field` names the operation in the error.
    func validated(field: String) throws -> (from: TopicPath, to: TopicPath) {
        func path(_ text: String, _ name: String) throws -> TopicPath {
            do { return try TopicPath(validating: text) } catch let MnemoError.invalidInput(_, reason) {
                throw MnemoError.invalidInput(field: "\(field).\(name)", reason: reason)
            }
        }
        let paths = (from: try path(from, "from"), to: try path(to, "to"))
        if paths.to.key == paths.from.key || paths.to.key.hasPrefix(paths.from.key + "/") {
            throw MnemoError.invalidInput(
                field: "\(field).to", reason: "\"\(to.prefix(64))\" is the topic \"\(from.prefix(64))\" or inside it")
        }
        return paths
    }

    /// Deletes the topic at `from` when the facts the server moved left it empty: the server's
    /// has gone.
    func dropIfEmpty(_ db: Database, namespace: String) throws {
        guard let path = try? TopicPath(validating: from),
            let topic = try TopicTable.find(db, namespace: namespace, path: path),
            try TopicTable.factCount(db, topicID: topic.id) == 0,
            try TopicTable.children(db, namespace: namespace, of: topic.id).isEmpty
        else { return }
        try TopicTable.delete(db, id: topic.id)
    }

    /// Replays the move in `namespace`, recording it in the topics' history; `false` when
    /// nothing is at `from` here.
    func apply(_ db: Database, namespace: String, now: Date) throws -> Bool {
        let (from, to) = try validated(field: "topic")
        guard let source = try TopicTable.find(db, namespace: namespace, path: from) else { return false }
        if let target = try TopicTable.find(db, namespace: namespace, path: to) {
            var merger = TopicMerger(db: db, namespace: namespace, now: now)
            try merger.merge(source, into: target)
            return true
        }
        let parent = try to.parent.map { try TopicTable.ensure(db, namespace: namespace, path: $0, at: now) }
        try TopicTable.relocate(db, topic: source, newName: to.segments.last!, newParent: parent)
        try HistoryTable.record(
            db, namespace: namespace, topicID: source.id,
            kind: from.parent?.key == to.parent?.key ? .topicRenamed : .topicMoved,
            details: ["from": source.path, "to": (try TopicTable.find(db, id: source.id))?.path ?? to.description],
            at: now)
        return true
    }
}
