import Foundation
import GRDB

/// The operations a device pushes, made from its outbox (see ``SyncSchema``): one per row, with
/// the fact's state read now, and the row's number in the operation's id, so that a push sent
/// again after a lost answer carries the same ids.
enum SyncOutbox {
    struct Batch: Sendable {
        var operations: [SyncOperation]
        /// The last outbox row the batch covers; `nil` when the outbox is empty.
        var through: Int64?
    }

    static func batch(_ db: Database, namespace: String, device: String, limit: Int) throws -> Batch {
        let rows = try SyncStore.outbox(db, namespace: namespace, limit: limit)
        var operations: [SyncOperation] = []
        for row in rows {
            let id = "\(device)/\(row.sequence)"
            guard let kind = ChangeEvent.Kind(rawValue: row.kind) else { continue }
            if kind == .topicRestored {
                // An undo moved the topic back: its facts' paths changed with no event of theirs.
                for (index, fact) in try SyncStore.facts(db, namespace: namespace, underTopic: row.uid).enumerated() {
                    operations.append(
                        SyncOperation(
                            id: "\(id).\(index)", kind: .update, uid: fact.uid, fact: SyncFact(fact), fields: ["topic"])
                    )
                }
                continue
            }
            if kind.concernsTopics {
                // The target side of a merge says nothing the merged side does not.
                if let historyID = row.historyID,
                    let move = SyncTopicMove(kind: kind, details: try SyncStore.details(db, historyID: historyID))
                {
                    operations.append(
                        SyncOperation(
                            id: id, kind: .moveTopic,
                            uid: StableID.topic(namespace: namespace, pathKey: move.from),
                            from: move.from, to: move.to))
                }
                continue
            }
            guard let uid = row.uid else { continue }
            let fact = try SyncStore.fact(db, namespace: namespace, uid: uid)
            let state = fact.map { SyncFact($0) }
            func operation(_ kind: SyncOperation.Kind, fields: [String]? = nil) -> SyncOperation {
                SyncOperation(
                    id: id, kind: kind, uid: uid, fact: kind == .delete || kind == .erase ? nil : state, fields: fields)
            }
            switch kind {
            case .factAdded, .factMentioned, .factMerged:
                // A fact gone since is not pushed: its delete or erasure follows in the outbox.
                if state != nil { operations.append(operation(.add)) }
            case .factUpdated:
                let fields = try row.historyID.map { try SyncStore.updatedFields(db, historyID: $0) } ?? []
                let known = fields.filter(SyncFact.fieldNames.contains)
                if state != nil, !known.isEmpty { operations.append(operation(.update, fields: known)) }
            case .factDeactivated, .factReactivated:
                if state != nil { operations.append(operation(.update, fields: ["is_active"])) }
            case .factRestored:
                operations.append(operation(state == nil ? .delete : .restore))
            case .factDeleted, .factMergedInto:
                operations.append(operation(.delete))
            case .factErased:
                operations.append(operation(.erase))
            default:
                continue
            }
        }
        return Batch(operations: operations, through: rows.last?.sequence)
    }
}
