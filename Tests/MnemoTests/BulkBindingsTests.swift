import GRDB
import Testing

@testable import Mnemo

/// Values bound straight to a statement read back as the same values with the same storage types
/// as GRDB's own bindings give (ingest's rows must not change when it binds this way).
@Suite("Bulk bindings")
struct BulkBindingsTests {
    @Test("each kind of value reads back as bound, in placeholder order, over many rows")
    func valuesReadBackAsBound() throws {
        let queue = try DatabaseQueue()
        let texts = ["", "plain", "ação ☕︎ 🧗", "nul\u{0}inside", String(repeating: "long ", count: 2_000)]
        let rows: [(Int64, String, Double?, Bool, String?)] = texts.enumerated().map { index, text in
            (
                Int64(index) - 2, text, index.isMultiple(of: 2) ? Double(index) / 3 : nil, index == 1,
                index == 3 ? nil : text
            )
        }
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (i INTEGER, s TEXT, d REAL, b BOOLEAN, o TEXT)")
            let placeholders = Array(repeating: "(?, ?, ?, ?, ?)", count: rows.count).joined(separator: ", ")
            let statement = try db.makeStatement(sql: "INSERT INTO t VALUES \(placeholders)")
            for _ in 0..<2 { // a statement is bound afresh each time
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
        }
        let stored = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT i, s, d, b, o, typeof(i), typeof(s), typeof(d), typeof(b) FROM t")
        }
        #expect(stored.count == rows.count * 2)
        for (index, row) in stored.enumerated() {
            let expected = rows[index % rows.count]
            #expect(row[0] as Int64 == expected.0)
            #expect(row[1] as String == expected.1)
            #expect(row[2] as Double? == expected.2)
            #expect(row[3] as Bool == expected.3)
            #expect(row[4] as String? == expected.4)
            #expect(row[5] as String == "integer" && row[6] as String == "text" && row[8] as String == "integer")
            #expect(row[7] as String == (expected.2 == nil ? "null" : "real"))
        }
    }
}
