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
            fields: [
                fact.uid, fact.content, topicKey(fact.topicPath), fact.type.rawValue, fact.importance.rawValue,
                fact.isActive ? "1" : "0", fact.status?.rawValue ?? "",
            ])
    }

    static func hash(of fact: SyncFact) -> UInt64 {
        hash(
            fields: [
                fact.uid, fact.content, topicKey(fact.topic), fact.type.rawValue, fact.importance.rawValue,
                fact.isActive ? "1" : "0", fact.status?.rawValue ?? "",
            ])
    }

    /// The digest of the namespace's stored facts.
    static func of(_ db: Database, namespace: String) throws -> SyncDigest {
        var digest = SyncDigest()
        try FactTable.forEach(db, namespace: namespace) { digest.add($0) }
        return digest
    }

    private static func topicKey(_ path: String) -> String {
        (try? TopicPath(path))?.key ?? path
    }

    private static func hash(fields: [String]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for field in fields {
            for byte in field.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
            // A separator no UTF-8 text holds, so that ("ab", "c") and ("a", "bc") differ.
            hash ^= 0xff
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
