import Foundation
import GRDB

/// Vectors in the database: one little-endian float32 BLOB per fact, and the identity of the
/// model that made them in the `meta` table.
enum EmbeddingTable {
    static let identityKey = "embedding_model"

    static func encode(_ vector: [Float]) -> Data {
        vector.withUnsafeBufferPointer { Data(buffer: $0) }
    }

    static func decode(_ data: Data, dimension: Int) -> [Float]? {
        guard data.count == dimension * MemoryLayout<Float>.size else { return nil }
        return data.withUnsafeBytes { raw in
            (0..<dimension).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self) }
        }
    }

    static func write(_ db: Database, factID: Int64, vector: [Float]) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO fact_embedding (fact_id, vector) VALUES (?, ?)")
            .execute(arguments: [factID, encode(vector)])
    }

    /// Vectors per statement of ``write(_:vectors:)``: two values each, under the 999 bound
    /// values of every SQLite version.
    static let rowsPerInsert = 400

    /// Writes many facts' vectors, ``rowsPerInsert`` per statement: what ``write(_:factID:vector:)``
    /// does for each, in order, without a statement and a `Data` per vector.
    static func write(_ db: Database, vectors: [(factID: Int64, vector: [Float])]) throws {
        for start in stride(from: 0, to: vectors.count, by: rowsPerInsert) {
            let rows = vectors[start..<min(start + rowsPerInsert, vectors.count)]
            let sql =
                "INSERT OR REPLACE INTO fact_embedding (fact_id, vector) VALUES "
                + Array(repeating: "(?, ?)", count: rows.count).joined(separator: ", ")
            // Full statements are cached; the one remainder of a batch is prepared once.
            let statement = try rows.count == rowsPerInsert ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
            var values = BulkBindings(statement)
            for (factID, vector) in rows {
                values.bind(factID)
                values.bind(vector: vector)
            }
            try values.execute()
        }
    }

    static func delete(_ db: Database, factID: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM fact_embedding WHERE fact_id = ?").execute(arguments: [factID])
    }

    static func storedIdentity(_ db: Database) throws -> EmbeddingModelIdentity? {
        guard let json = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [identityKey])
        else {
            return nil
        }
        return try? JSONDecoder().decode(EmbeddingModelIdentity.self, from: Data(json.utf8))
    }

    static func setIdentity(_ db: Database, _ identity: EmbeddingModelIdentity) throws {
        let json = String(decoding: try JSONEncoder.sortedKeys.encode(identity), as: UTF8.self)
        try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [identityKey, json])
    }

    static func vectorCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM fact_embedding") ?? 0
    }

    /// Throws when vectors of another model than `identity` are stored, without writing.
    static func check(_ db: Database, identity: EmbeddingModelIdentity) throws {
        if let stored = try storedIdentity(db), stored != identity, try vectorCount(db) > 0 {
            throw MnemoError.conflict(.embedderMismatch(stored: stored, given: identity))
        }
    }

    /// Records `identity` as the model of this database, or throws when vectors of another
    /// model are stored: mixing them would make similarities meaningless.
    static func adopt(_ db: Database, identity: EmbeddingModelIdentity) throws {
        try check(db, identity: identity)
        try setIdentity(db, identity)
    }

    /// Reads the index rows of the given facts; facts without a vector are left out.
    static func indexRows(_ db: Database, ids: some Collection<Int64>, dimension: Int) throws -> [Int64: (
        vector: [Float], attributes: VectorSnapshot.Attributes
    )] {
        var rows: [Int64: (vector: [Float], attributes: VectorSnapshot.Attributes)] = [:]
        for chunk in Array(ids).chunked(into: 500) {
            let sql = "\(indexSelection) WHERE fact.id IN (\(chunk.map(String.init).joined(separator: ",")))"
            for row in try Row.fetchAll(db, sql: sql) {
                if let entry = indexEntry(row, dimension: dimension) { rows[row["id"]] = entry }
            }
        }
        return rows
    }

    /// Calls `body` with every stored vector and its attributes, streaming rows from the database.
    static func forEachIndexRow(
        _ db: Database, dimension: Int, _ body: (Int64, [Float], VectorSnapshot.Attributes) -> Void
    ) throws {
        let cursor = try Row.fetchCursor(db, sql: "\(indexSelection) ORDER BY fact.id")
        while let row = try cursor.next() {
            if let entry = indexEntry(row, dimension: dimension) { body(row["id"], entry.vector, entry.attributes) }
        }
    }

    private static let indexSelection = """
        SELECT fact.id, fact.namespace, fact.topic_id, fact.type, fact.importance, fact.is_active, fact.created_at, fact_embedding.vector
        FROM fact JOIN fact_embedding ON fact_embedding.fact_id = fact.id
        """

    private static func indexEntry(_ row: Row, dimension: Int) -> (
        vector: [Float], attributes: VectorSnapshot.Attributes
    )? {
        guard let vector = decode(row["vector"], dimension: dimension) else { return nil }
        return (
            vector,
            VectorSnapshot.Attributes(
                namespace: row["namespace"], topicID: row["topic_id"],
                type: FactType(rawValue: row["type"]) ?? .fact,
                importance: Importance(rank: row["importance"]) ?? .negligible, isActive: row["is_active"],
                createdAt: row["created_at"])
        )
    }
}
