import Foundation
import GRDB

/// What an erased fact leaves so that it cannot come back through sync: a keyed hash of each
/// wording it had, per namespace.
///
/// A device that held a fact before its first link (an import, a backup) offers it to the server
/// (``SyncOperation/offered``) under a uid of its own, which no tombstone names. Without a trace
/// of the wording, an erased statement would be added again. So the erase keeps, in
/// `erased_content`, HMAC-SHA-256 of each content key the erased facts had, under a random key
/// that the namespace holds in `namespace_secret`: a hash that can be matched against a wording
/// offered later, that says nothing of the wording to whoever does not hold it, and that cannot
/// be compared across namespaces or files. Erasing the namespace (``FactEraser/eraseNamespace(_:namespace:now:)``)
/// removes the key and the hashes together.
enum ErasedContent {
    /// Remembers the content keys of every wording the facts in `temp.erasing` had: their rows'
    /// contents and those their history holds (a deleted fact's, the old and new sides of an
    /// edit, a merged duplicate's). Called before those rows go.
    static func rememberErasing(_ db: Database, namespace: String) throws {
        var contents = try String.fetchAll(
            db, sql: "SELECT content FROM fact WHERE namespace = ? AND id IN (SELECT id FROM erasing)",
            arguments: [namespace])
        let recorded = try String.fetchAll(
            db,
            sql: """
                SELECT json_extract(details, '$.content') FROM history
                WHERE namespace = ? AND fact_id IN (SELECT id FROM erasing)
                  AND json_extract(details, '$.content') IS NOT NULL
                """, arguments: [namespace])
        for text in recorded {
            contents += text.components(separatedBy: HistoryEvent.updateArrow)
        }
        try remember(db, namespace: namespace, contentKeys: Set(contents.map(TextNormalization.factKey)))
    }

    /// Whether a fact of `namespace` with this content key was erased.
    static func contains(_ db: Database, namespace: String, contentKey: String) throws -> Bool {
        guard let secret = try secret(db, namespace: namespace) else { return false }
        return try Bool.fetchOne(
            db,
            sql: "SELECT EXISTS (SELECT 1 FROM erased_content WHERE namespace = ? AND key_hash = ?)",
            arguments: [namespace, Data(hash(contentKey, secret: secret))]) ?? false
    }

    /// Forgets the namespace's key and hashes.
    static func forget(_ db: Database, namespace: String) throws {
        try db.execute(sql: "DELETE FROM erased_content WHERE namespace = ?", arguments: [namespace])
        try db.execute(sql: "DELETE FROM namespace_secret WHERE namespace = ?", arguments: [namespace])
    }

    private static func remember(_ db: Database, namespace: String, contentKeys: Set<String>) throws {
        guard !contentKeys.isEmpty else { return }
        let secret = try secret(db, namespace: namespace) ?? makeSecret(db, namespace: namespace)
        for key in contentKeys.sorted() {
            try db.execute(
                sql: "INSERT OR IGNORE INTO erased_content (namespace, key_hash) VALUES (?, ?)",
                arguments: [namespace, Data(hash(key, secret: secret))])
        }
    }

    private static func hash(_ contentKey: String, secret: [UInt8]) -> [UInt8] {
        SHA256.authenticationCode(of: Array(contentKey.utf8), key: secret)
    }

    private static func secret(_ db: Database, namespace: String) throws -> [UInt8]? {
        try Data.fetchOne(db, sql: "SELECT secret FROM namespace_secret WHERE namespace = ?", arguments: [namespace])
            .map { Array($0) }
    }

    private static func makeSecret(_ db: Database, namespace: String) throws -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        try db.execute(
            sql: "INSERT INTO namespace_secret (namespace, secret) VALUES (?, ?)", arguments: [namespace, Data(secret)])
        return secret
    }
}
