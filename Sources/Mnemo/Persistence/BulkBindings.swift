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
/// `DatabaseValue` first, which took a twentieth of an ingest's processor time. Values are
/// copied by SQLite as they are bound (`SQLITE_TRANSIENT`), as GRDB does.
struct BulkBindings: ~Copyable {
    private let statement: Statement
    private var index: CInt = 1

    /// Starts binding `statement` from its first placeholder, with every binding cleared.
    init(_ statement: Statement) {
        // Empty unchecked arguments reset the statement, clear its bindings and tell GRDB that
        // they are bound: its `execute()` then runs with the values bound here.
        statement.setUncheckedArguments(StatementArguments())
        self.statement = statement
    }

    /// Runs the statement with the values bound, which must fill every placeholder.
    consuming func execute() throws {
        precondition(index == sqlite3_bind_parameter_count(statement.sqliteStatement) + 1, "placeholders left unbound")
        try statement.execute()
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
        check(sqlite3_bind_text(statement.sqliteStatement, index, value, -1, transient))
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
        let code = vector.withUnsafeBytes { bytes in
            sqlite3_bind_blob(statement.sqliteStatement, index, bytes.baseAddress, CInt(bytes.count), transient)
        }
        check(code)
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

    /// SQLite's "copy the value now" destructor.
    private var transient: sqlite3_destructor_type {
        unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
    }
}
