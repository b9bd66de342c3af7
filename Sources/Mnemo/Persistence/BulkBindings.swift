import GRDB

#if canImport(GRDBSQLite)
    import GRDBSQLite
#elseif canImport(SQLite3)
    import SQLite3
#endif

/// Binds the values of a many-row `INSERT` straight to its statement, in placeholder order.
///
/// Bulk writes (ingest's facts and their history) bind thousands of values per statement; going
/// through `StatementArguments` boxed each in an existential and converted it to a
/// `DatabaseValue` first, which took a twentieth of an ingest's processor time.
///
/// Texts and blobs are copied into one buffer of the bindings, and bound from it when the
/// statement runs, without a copy of SQLite's (`SQLITE_STATIC`). SQLite's own copies
/// (`SQLITE_TRANSIENT`, as GRDB binds) took one allocation per text and per vector, and with
/// freeing them 5 % of a bulk load's time.
struct BulkBindings: ~Copyable {
    private let statement: Statement
    private var index: CInt = 1
    /// The bytes of every text and blob bound so far.
    private var bytes: [UInt8] = []
    /// Where each text or blob is in ``bytes``, by placeholder.
    private var spans: [Span] = []

    private struct Span {
        var index: CInt
        var start: Int
        var count: Int
        var isText: Bool
    }

    /// Starts binding `statement` from its first placeholder, with every binding cleared.
    init(_ statement: Statement) {
        // Empty unchecked arguments reset the statement, clear its bindings and tell GRDB that
        // they are bound: its `execute()` then runs with the values bound here.
        statement.setUncheckedArguments(StatementArguments())
        self.statement = statement
    }

    /// Runs the statement with the values bound, which must fill every placeholder, and clears
    /// its bindings, which point into a buffer that goes away.
    consuming func execute() throws {
        let sqliteStatement = statement.sqliteStatement
        precondition(index == sqlite3_bind_parameter_count(sqliteStatement) + 1, "placeholders left unbound")
        defer { sqlite3_clear_bindings(sqliteStatement) }
        try bytes.withUnsafeBufferPointer { buffer in
            for span in spans {
                // No destructor (`SQLITE_STATIC`): the bytes stay where they are until the run
                // ends. An empty value still needs an address (a null one would bind NULL).
                let code: CInt
                switch (span.isText, span.count) {
                case (true, 0): code = sqlite3_bind_text(sqliteStatement, span.index, "", 0, Self.transient)
                case (false, 0): code = sqlite3_bind_zeroblob(sqliteStatement, span.index, 0)
                case (true, _):
                    code = sqlite3_bind_text(
                        sqliteStatement, span.index, buffer.baseAddress! + span.start, CInt(span.count), nil)
                case (false, _):
                    code = sqlite3_bind_blob(
                        sqliteStatement, span.index, buffer.baseAddress! + span.start, CInt(span.count), nil)
                }
                precondition(code == SQLITE_OK, "binding placeholder \(span.index) failed with code \(code)")
            }
            try statement.execute()
        }
    }

    mutating func bind(_ value: Int64) {
        check(sqlite3_bind_int64(statement.sqliteStatement, index, value))
    }

    mutating func bind(_ value: Int) {
        bind(Int64(value))
    }

    mutating func bind(_ value: Double) {
        check(sqlite3_bind_double(statement.sqliteStatement, index, value))
    }

    mutating func bind(_ value: Bool) {
        bind(Int64(value ? 1 : 0))
    }

    /// Binds the text up to its first NUL character, as GRDB binds a `String`.
    mutating func bind(_ value: String) {
        let start = bytes.count
        bytes.append(contentsOf: value.utf8.prefix { $0 != 0 })
        spans.append(Span(index: index, start: start, count: bytes.count - start, isText: true))
        index += 1
    }

    mutating func bind(_ value: Int64?) {
        if let value { bind(value) } else { bindNull() }
    }

    mutating func bind(_ value: Double?) {
        if let value { bind(value) } else { bindNull() }
    }

    mutating func bind(_ value: String?) {
        if let value { bind(value) } else { bindNull() }
    }

    /// Binds a vector as its little-endian float32 bytes, as ``EmbeddingTable/encode(_:)``
    /// writes them, without making a `Data` first.
    mutating func bind(vector: [Float]) {
        let start = bytes.count
        vector.withUnsafeBytes { bytes.append(contentsOf: $0) }
        spans.append(Span(index: index, start: start, count: bytes.count - start, isText: false))
        index += 1
    }

    mutating func bindNull() {
        check(sqlite3_bind_null(statement.sqliteStatement, index))
    }

    /// Moves to the next placeholder; a binding fails only on a wrong index or size, which is a
    /// bug here, not a condition to handle.
    private mutating func check(_ code: CInt) {
        precondition(code == SQLITE_OK, "binding placeholder \(index) failed with code \(code)")
        index += 1
    }

    /// SQLite's "copy the value now" destructor (`SQLITE_TRANSIENT`).
    private static var transient: sqlite3_destructor_type {
        unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
    }
}
