import GRDB

/// The digest of a namespace's facts that a device and its server compare after a sync: the
/// number of facts and the wrapping sum of one 64-bit FNV-1a hash per fact over its uid,
/// content, topic path (folded, as paths compare), type, importance, whether it is active and
/// its goal status. A sum does not depend on the order the facts are read in, so each side
/// computes it in one pass over its own rows. It is a check against replicas drifting apart
/// (a lost push, a restored file or server), not against forgery.
struct SyncDigest: Hashable, Sendable, CustomStringConvertible {
    var count = 0
    var sum: UInt64 = 0

    /// The digest as it travels: `count-sum` (the sum in 16 hex digits).
    var description: String {
        let hex = String(sum, radix: 16)
        return "\(count)-\(String(repeating: "0", count: 16 - hex.count))\(hex)"
    }

    mutating func add(_ fact: Fact) {
        add(Self.hash(of: fact))
    }

    mutating func add(_ hash: UInt64) {
        count += 1
        sum &+= hash
    }

    /// The hash of one fact's compared fields.
    static func hash(of fact: Fact) -> UInt64 {
        hash(
            fact.uid, fact.content, topic: fact.topicPath, fact.type, fact.importance, isActive: fact.isActive,
            status: fact.status)
    }

    static func hash(of fact: SyncFact) -> UInt64 {
        hash(
            fact.uid, fact.content, topic: fact.topic, fact.type, fact.importance, isActive: fact.isActive,
            status: fact.status)
    }

    /// The digest of the namespace's stored facts.
    static func of(_ db: Database, namespace: String) throws -> SyncDigest {
        var digest = SyncDigest()
        try FactTable.forEach(db, namespace: namespace) { digest.add($0) }
        return digest
    }

    /// The compared fields, the one list both sides' facts are hashed by.
    private static func hash(
        _ uid: String, _ content: String, topic: String, _ type: FactType, _ importance: Importance,
        isActive: Bool, status: GoalStatus?
    ) -> UInt64 {
        let topicKey = (try? TopicPath(topic))?.key ?? topic
        let fields = [
            uid, content, topicKey, type.rawValue, importance.rawValue, isActive ? "1" : "0", status?.rawValue ?? "",
        ]
        return fields.reduce(FNV1a.offsetBasis) { hash, field in
            // A separator no UTF-8 text holds, so that ("ab", "c") and ("a", "bc") differ.
            FNV1a.hash(CollectionOfOne(0xff), continuing: FNV1a.hash(field.utf8, continuing: hash))
        }
    }
}
