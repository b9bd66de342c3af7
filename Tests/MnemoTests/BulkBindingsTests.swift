import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

/// Values bound straight to a statement are stored as GRDB's own bindings store them: the same
/// values, lengths and storage types (ingest's rows must not change when it binds this way).
@Suite("Bulk bindings")
struct BulkBindingsTests {
    @Test("each kind of value is stored as GRDB stores it, in placeholder order, over many rows")
    func valuesAreStoredAsGRDBStoresThem() throws {
        let texts = ["", "plain", "ação ☕︎ 🧗", "nul\u{0}inside", String(repeating: "long ", count: 2_000)]
        let rows: [(Int64, String, Double?, Bool, String?)] = texts.enumerated().map { index, text in
            let real = index.isMultiple(of: 2) ? Double(index) / 3 : nil
            return (Int64(index) - 2, text, real, index == 1, index == 3 ? nil : text)
        }
        let placeholders = Array(repeating: "(?, ?, ?, ?, ?)", count: rows.count).joined(separator: ", ")
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE bulk (i INTEGER, s TEXT, d REAL, b BOOLEAN, o TEXT)")
            try db.execute(sql: "CREATE TABLE grdb (i INTEGER, s TEXT, d REAL, b BOOLEAN, o TEXT)")
            let statement = try db.makeStatement(sql: "INSERT INTO bulk VALUES \(placeholders)")
            for _ in 0..<2 { // bound afresh each time
                var bindings = BulkBindings(statement)
                for row in rows {
                    bindings.bind(row.0)
                    bindings.bind(row.1)
                    bindings.bind(row.2)
                    bindings.bind(row.3)
                    bindings.bind(row.4)
                }
                try bindings.execute()
            }
            let arguments: [(any DatabaseValueConvertible)?] = rows.flatMap { row in
                [row.0, row.1, row.2, row.3, row.4] as [(any DatabaseValueConvertible)?]
            }
            for _ in 0..<2 {
                try db.execute(sql: "INSERT INTO grdb VALUES \(placeholders)", arguments: StatementArguments(arguments))
            }
        }
        let columns = "i, s, d, b, o, typeof(i), typeof(s), typeof(d), typeof(b), typeof(o), length(s), hex(s)"
        let (bulk, grdb) = try queue.read { db in
            (
                try Row.fetchAll(db, sql: "SELECT \(columns) FROM bulk ORDER BY rowid"),
                try Row.fetchAll(db, sql: "SELECT \(columns) FROM grdb ORDER BY rowid")
            )
        }
        #expect(bulk.count == rows.count * 2)
        #expect(bulk == grdb)
        #expect(bulk.first?["s"] as String? == "")
        #expect(bulk[2]["s"] as String? == "ação ☕︎ 🧗")
    }

    @Test("vectors written many per statement are stored as one write per vector stores them")
    func vectorsWrittenManyPerStatementAreStoredAsSingleWritesStoreThem() throws {
        // Two full statements and a remainder; the last ids are written again (replaced).
        let count = 2 * EmbeddingTable.rowsPerInsert + 57
        var vectors: [(factID: Int64, vector: [Float])] = []
        for index in 0..<count {
            let vector: [Float] = (0..<7).map { component in Float(index * 7 + component) / 3 - 100 }
            vectors.append((Int64(index + 1), vector))
        }
        let replaced: [(factID: Int64, vector: [Float])] = vectors.suffix(3).map { ($0.factID, $0.vector.map { -$0 }) }
        func stored(_ write: (Database) throws -> Void) throws -> [Row] {
            let queue = try DatabaseQueue()
            return try queue.write { db in
                try db.execute(sql: "CREATE TABLE fact_embedding (fact_id INTEGER PRIMARY KEY, vector BLOB NOT NULL)")
                try write(db)
                return try Row.fetchAll(
                    db, sql: "SELECT fact_id, vector, typeof(vector) FROM fact_embedding ORDER BY fact_id")
            }
        }
        let bulk = try stored { db in
            try EmbeddingTable.write(db, vectors: vectors)
            try EmbeddingTable.write(db, vectors: replaced)
        }
        let single = try stored { db in
            for (id, vector) in vectors + replaced { try EmbeddingTable.write(db, factID: id, vector: vector) }
        }
        #expect(bulk.count == count)
        #expect(bulk == single)
        #expect(EmbeddingTable.decode(bulk[0]["vector"], dimension: 7) == vectors[0].vector)
    }
}
