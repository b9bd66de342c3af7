import Foundation
import GRDB

/// The operations a device pushes, made from its outbox (see ``SyncSchema``): one per row, with
/// the fact's state read now, and the row's random operation id, so that a push sent again
/// after a lost answer carries the same ids and a file restored from a backup never makes an id
/// the server has answered.
enum SyncOutbox {
    struct Batch: Sendable {
        var operations: [SyncOperation]
        /// The last outbox row the batch covers; `nil` when the outbox is empty.
        var through: Int64?
        /// How many outbox rows the batch covers.
        var rows = 0
    }

    /// - Parameter dimension: the dimension of this device's vectors, which adds and new
    ///   wordings carry (the server takes them when it embeds with the same model, instead of
    ///   embedding the text again); `nil` to send none.
    static func batch(_ db: Database, namespace: String, device: String, limit: Int, dimension: Int? = nil) throws
        -> Batch
    {
        let rows = try SyncStore.outbox(db, namespace: namespace, limit: limit)
        var operations: [SyncOperation] = []
        // Facts added by an operation of this batch, which carries their state now: a later
        // update or (de)activation of one in the batch says nothing more.
        var added = Set<String>()
        func state(_ fact: Fact, wording: Bool) throws -> SyncFact {
            guard wording, let dimension else { return SyncFact(fact) }
            return SyncFact(fact, vector: try SyncStore.vector(db, factID: fact.id, dimension: dimension))
        }
        for row in rows {
            let id = "\(device)/\(row.operation ?? String(row.sequence))"
            if row.kind == SyncStore.offeredKind {
                // Offered as it is now; a fact gone since has nothing to offer.
                if let uid = row.uid, let fact = try SyncStore.fact(db, namespace: namespace, uid: uid) {
                    operations.append(
                        SyncOperation(
                            id: id, kind: .add, uid: uid, fact: try state(fact, wording: true), offered: true))
                    added.insert(uid)
                }
                continue
            }
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
            func operation(_ kind: SyncOperation.Kind, fields: [String]? = nil) throws -> SyncOperation {
                let wording = kind == .add || kind == .restore || fields?.contains("content") == true
                return SyncOperation(
                    id: id, kind: kind, uid: uid,
                    fact: kind == .delete || kind == .erase ? nil : try fact.map { try state($0, wording: wording) },
                    fields: fields)
            }
            switch kind {
            case .factAdded, .factMentioned, .factMerged:
                // A fact gone since is not pushed: its delete or erasure follows in the outbox.
                if fact != nil {
                    operations.append(try operation(.add))
                    added.insert(uid)
                }
            case .factUpdated:
                let fields = try row.historyID.map { try SyncStore.updatedFields(db, historyID: $0) } ?? []
                let known = fields.filter(SyncFact.fieldNames.contains)
                if fact != nil, !known.isEmpty, !added.contains(uid) {
                    operations.append(try operation(.update, fields: known))
                }
            case .factDeactivated, .factReactivated:
                if fact != nil, !added.contains(uid) {
                    operations.append(try operation(.update, fields: ["is_active"]))
                }
            case .factRestored:
                operations.append(try operation(fact == nil ? .delete : .restore))
            case .factDeleted, .factMergedInto:
                added.remove(uid)
                operations.append(try operation(.delete))
            case .factErased:
                added.remove(uid)
                operations.append(try operation(.erase))
            default:
                continue
            }
        }
        return Batch(operations: operations, through: rows.last?.sequence, rows: rows.count)
    }
}
