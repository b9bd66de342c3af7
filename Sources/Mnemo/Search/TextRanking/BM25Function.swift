import Foundation
import GRDB

#if canImport(GRDBSQLite)
    import GRDBSQLite
#elseif canImport(SQLite3)
    import SQLite3
#endif

/// `mnemo_bm25(fact_fts, key, changes, phrases, weight…)`: FTS5's `bm25()`, score for score,
/// with each row's size and each phrase's count kept in memory.
///
/// FTS5's `bm25()` reads the size in tokens of every matching row from `fact_fts_docsize`: one
/// statement per row, about three quarters of the cost of ranking. For a common word that matches
/// thousands of facts that is most of a search. This function evaluates the same formula in the
/// same order (k1 = 1.2, b = 0.75, IDF floored at 1e-6), so its scores are bit for bit those of
/// `bm25()`, but it remembers the sizes in a table of its connection: the first search that meets a
/// row reads its size, later ones find it in memory. It remembers as well how many rows hold each
/// phrase it has counted for an IDF (a pass over the phrase's rows, in each half of a split
/// ranking).
///
/// Sizes and counts change when facts are written, so each query passes two arguments that
/// say whether they still hold: `key` stands for FTS5's structure record (row 10 of
/// `fact_fts_data`, which every write to the index replaces when it commits, as seen by the
/// query's snapshot), and `changes` is `total_changes()`, which moves with each write of the
/// connection itself, committed or not. When either differs from the previous query's, the
/// connection's memory starts empty.
///
/// The key is a 64-bit FNV-1a hash of the record (``structureKeyName``), computed once per
/// query: SQLite copies a function's arguments for every row, and a blob argument cost one
/// `malloc` per match (a tenth of the mean text search at 100k facts). Two different
/// records share a hash with odds of 1 in 2⁶⁴.
///
/// `phrases` (``phrasesArgument(_:narrowedTo:)``) names the query's phrases and says
/// which of them each phrase of the MATCH expression is. An expression that names a phrase
/// more than once (as ``TextQuery/narrowed(keeping:)`` does) is scored as the plain OR of the
/// query's phrases, each once; and then the ranking also finds, for each phrase, the best
/// score a row holding that phrase alone has (``Counts/singlePhraseBounds``).
enum BM25Function {
    static let name = "mnemo_bm25"
    static let structureKeyName = "mnemo_bm25_key"

    /// The call that ranks rows of `fact_fts` with these column weights (more negative is better,
    /// as `bm25()`), with a statement parameter for ``phrasesArgument(_:narrowedTo:)``.
    static func sql(weights: Double...) -> String {
        let key = "(SELECT \(structureKeyName)(block) FROM fact_fts_data WHERE id = 10)"
        return "\(name)(fact_fts, \(key), total_changes(), ?, \(weights.map { "\($0)" }.joined(separator: ", ")))"
    }

    /// The `phrases` argument: the query's phrases, by which the connection remembers their
    /// counts; and for a narrowed expression, for each of its phrases in order, the index of the
    /// query's phrase it is (an expression of the query's phrases in order when `nil`). With a
    /// narrowed expression the ranking records each phrase's bound. Fields are apart by U+001F,
    /// which the words of a phrase never hold.
    static func phrasesArgument(_ phrases: [[String]], narrowedTo expression: [Int]? = nil) -> String {
        ([expression?.map(String.init).joined(separator: " ") ?? ""] + phrases.map { $0.joined(separator: " ") })
            .joined(separator: "\u{1F}")
    }

    /// Registers the functions on `db`'s connection, with an empty table of row sizes.
    /// Throws when the connection does not have the function (its configuration was not prepared).
    static func checkRegistered(_ db: Database) throws {
        _ = try Int64.fetchOne(db, sql: "SELECT \(structureKeyName)(NULL)")
    }

    static func register(_ db: Database) throws {
        db.add(function: structureKey)
        let api = FTS5.api(db)
        let memory = Unmanaged.passRetained(ConnectionMemory()).toOpaque()
        let code = api.pointee.xCreateFunction(UnsafeMutablePointer(mutating: api), name, memory, rank) { memory in
            if let memory { Unmanaged<ConnectionMemory>.fromOpaque(memory).release() }
        }
        guard code == SQLITE_OK else {
            Unmanaged<ConnectionMemory>.fromOpaque(memory).release()
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot register \(name)")
        }
    }

    /// `mnemo_bm25_key(blob)`: the FNV-1a hash of the blob's bytes.
    private static let structureKey = DatabaseFunction(structureKeyName, argumentCount: 1, pure: true) { values in
        guard case .blob(let data) = values[0].storage else { return 0 }
        return Int64(bitPattern: FNV1a.hash(data))
    }

    /// The sum of the varints of a `fact_fts_docsize` blob (SQLite's varint: big-endian
    /// groups of 7 bits, the high bit set on every byte but the last, a ninth byte of 8 bits),
    /// or `nil` when the blob is malformed or the sum overflows.
    static func totalSize(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        var total: Int64 = 0
        var index = 0
        while index < bytes.count {
            var value: UInt64 = 0
            var length = 0
            while true {
                guard index < bytes.count else { return nil }
                let byte = bytes[index]
                index += 1
                length += 1
                if length == 9 {
                    value = (value << 8) | UInt64(byte)
                    break
                }
                value = (value << 7) | UInt64(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
            // FTS5 reads each column's size as a 32-bit int.
            total += Int64(Int32(truncatingIfNeeded: value))
            guard total <= Int64(Int32.max), total >= 0 else { return nil }
        }
        return Int32(total)
    }

    /// What the ranking that last ran on a connection counted for the IDF, phrase by phrase of
    /// the query.
    struct Counts: Equatable {
        /// The rows holding each phrase: ``TextSearcher`` takes them for the word coverage,
        /// which otherwise counted them again, phrase by phrase.
        var phraseHits: [Int]
        /// With a phrase map and two phrases or more: for each phrase, the highest score among
        /// the rows that hold it, counting that phrase alone. A row holding only that phrase of
        /// the query scores exactly that much or less.
        var singlePhraseBounds: [Double]?
    }

    private static let counts = Locked<[OpaquePointer: Counts]>([:])

    /// Forgets the counts of `db`'s connection, and returns them.
    static func takeCounts(_ db: Database) -> Counts? {
        guard let connection = db.sqliteConnection else { return nil }
        return counts.withLock { $0.removeValue(forKey: connection) }
    }

    /// How many times a connection read every row's size at once (see `ConnectionMemory`), for tests.
    static let fullSizeReads = Locked(0)

    private static let k1 = 1.2
    private static let b = 0.75

    /// The FTS5 extension function.
    private static let rank: fts5_extension_function = { api, context, result, argumentCount, arguments in
        guard let api, let context, let result, let arguments else { return }
        let statistics: QueryStatistics
        if let saved = api.pointee.xGetAuxdata(context, 0) {
            statistics = Unmanaged<QueryStatistics>.fromOpaque(saved).takeUnretainedValue()
        } else if let userData = api.pointee.xUserData(context) {
            let memory = Unmanaged<ConnectionMemory>.fromOpaque(userData).takeUnretainedValue()
            memory.validate(key: arguments[0], changes: arguments[1])
            guard argumentCount > 2, let phrases = QueryPhrases(arguments[2]) else {
                return sqlite3_result_error_code(result, SQLITE_MISMATCH)
            }
            let weights = (3..<max(3, Int(argumentCount))).map { sqlite3_value_double(arguments[$0]) }
            do throws(Failure) {
                statistics = try QueryStatistics(
                    api, context, phrases: phrases, weights: weights, memory: memory,
                    db: sqlite3_context_db_handle(result))
            } catch {
                return sqlite3_result_error_code(result, error.code)
            }
            // On failure FTS5 has already released the pointer: the local reference stays valid.
            let code = api.pointee.xSetAuxdata(context, Unmanaged.passRetained(statistics).toOpaque()) { saved in
                if let saved { Unmanaged<QueryStatistics>.fromOpaque(saved).release() }
            }
            guard code == SQLITE_OK else { return sqlite3_result_error_code(result, code) }
        } else {
            return sqlite3_result_error_code(result, SQLITE_MISUSE)
        }
        do throws(Failure) {
            sqlite3_result_double(result, -(try statistics.score(api, context)))
        } catch {
            sqlite3_result_error_code(result, error.code)
        }
    }

    /// A failed call of the FTS5 extension API.
    private struct Failure: Error {
        var code: Int32

        /// Throws unless `code` is `SQLITE_OK`.
        static func check(_ code: Int32) throws(Failure) {
            if code != SQLITE_OK { throw Failure(code: code) }
        }
    }

    /// A phrase's rows, as a pass over them counted them (``ConnectionMemory/phraseCounts``).
    private struct PhraseCount {
        var hits: Int64
        /// The highest saturation of the phrase in any of its rows (its score alone there is
        /// its IDF times this), when the pass measured it: at most k1 + 1 for a phrase in more
        /// rows than ``PhrasePass/measuredRows``.
        var bestSaturation: Double?
    }

    /// What one connection remembers between its queries while the index stays as it was: the
    /// sizes in tokens of the rows it has ranked, by rowid, and the counts of the phrases.
    ///
    /// Used only from its connection's queries, which SQLite runs one at a time. So its
    /// properties, read for every row a query ranks, skip Swift's run-time exclusivity checks:
    /// at a million facts those checks were a tenth of a text search's time.
    private final class ConnectionMemory {
        /// Rowids from 1 up to this many are kept in a flat array; others are read each time.
        static let capacity = 1 << 25

        private var key: Int64 = 0
        private var changes: Int64 = -1
        /// Each row's size plus one, by rowid, in a byte: 0 while unknown, and
        /// ``largeSizeMark`` for a size that does not fit, which ``largeSizes`` holds.
        ///
        /// A byte, not the `Int32` FTS5 gives: a common word's matches are spread over the whole
        /// table, and at a million facts a table of four bytes a row outgrew a core's L2 cache,
        /// so that nearly every match missed it (that one load stood out in a text search's
        /// profile). A quarter of the bytes stays in it, and facts are a few dozen tokens long.
        @exclusivity(unchecked) private var sizes: [UInt8] = []
        /// The sizes of ``largeSizeMark`` tokens or more, by rowid.
        @exclusivity(unchecked) private var largeSizes: [Int: Int32] = [:]
        static let largeSizeMark: UInt8 = .max
        /// Sizes read one by one since the table was emptied.
        @exclusivity(unchecked) private var misses = 0
        /// Whether every row's size was read since the table was emptied.
        @exclusivity(unchecked) private var loadedAll = false
        /// The phrases counted since the index last changed, by the weights and their text.
        @exclusivity(unchecked) private(set) var phraseCounts: [String: PhraseCount] = [:]
        /// At most this many phrases are remembered; then the counts start again.
        static let phraseCapacity = 10_000

        func remember(_ count: PhraseCount, of key: String) {
            if phraseCounts.count >= Self.phraseCapacity { phraseCounts.removeAll() }
            phraseCounts[key] = count
        }

        /// Forgets every size and count unless `key` and `changes` are those of the previous query.
        func validate(key keyValue: OpaquePointer?, changes changesValue: OpaquePointer?) {
            let key = sqlite3_value_int64(keyValue)
            let changes = sqlite3_value_int64(changesValue)
            guard key != self.key || changes != self.changes else { return }
            self.key = key
            self.changes = changes
            sizes.removeAll(keepingCapacity: true)
            largeSizes.removeAll(keepingCapacity: true)
            misses = 0
            loadedAll = false
            phraseCounts.removeAll()
        }

        /// The size of the current row of `context`, in a table of `rows` rows (FTS5's count).
        ///
        /// Reading one row's size costs a statement; reading every row's in one pass of
        /// `fact_fts_docsize` costs a few hundredths of that per row. Once a sixteenth of the rows (at
        /// least 1,000) were read one by one since the table was last emptied, every size is read at
        /// once: at a million facts a few common-word searches otherwise keep paying for rows no search
        /// has met yet. The reads one by one before it cost about four times the pass, so whatever the
        /// order of searches this costs at most about five times the cheaper way.
        func size(_ api: UnsafePointer<Fts5ExtensionApi>, _ context: OpaquePointer, rows: Int64, db: OpaquePointer?)
            throws(Failure) -> Int32
        {
            let rowid = Int(api.pointee.xRowid(context))
            if let size = remembered(rowid) { return size }
            if !loadedAll, let db, rows > 0 {
                misses += 1
                if misses > max(Self.minimumMissesBeforeLoading, Int(rows / 16)) {
                    loadedAll = true
                    loadAll(db)
                    if let size = remembered(rowid) { return size }
                }
            }
            var size: Int32 = 0
            try Failure.check(api.pointee.xColumnSize(context, -1, &size))
            remember(size, of: rowid)
            return size
        }

        private func remembered(_ rowid: Int) -> Int32? {
            guard rowid > 0, rowid < sizes.count else { return nil }
            switch sizes[rowid] {
            case 0: return nil
            case Self.largeSizeMark: return largeSizes[rowid]
            case let sizePlusOne: return Int32(sizePlusOne) - 1
            }
        }

        private func remember(_ size: Int32, of rowid: Int) {
            guard rowid > 0, rowid < Self.capacity, size >= 0 else { return }
            if rowid >= sizes.count {
                sizes.append(contentsOf: repeatElement(0, count: max(rowid + 1, 2 * sizes.count) - sizes.count))
            }
            if size < Int32(Self.largeSizeMark) - 1 {
                sizes[rowid] = UInt8(size + 1)
            } else {
                sizes[rowid] = Self.largeSizeMark
                largeSizes[rowid] = size
            }
        }

        /// Below this many rows read one by one a full pass is never made.
        static let minimumMissesBeforeLoading = 1_000

        /// Reads the size of every row from `fact_fts_docsize` (one varint per column, summed as
        /// `xColumnSize(-1)` sums them); rows it cannot decode are left to be read one by one.
        private func loadAll(_ db: OpaquePointer) {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(db, "SELECT id, sz FROM fact_fts_docsize", -1, &statement, nil) == SQLITE_OK,
                let statement
            else { return }
            defer { sqlite3_finalize(statement) }
            BM25Function.fullSizeReads.withLock { $0 += 1 }
            while sqlite3_step(statement) == SQLITE_ROW {
                let rowid = Int(sqlite3_column_int64(statement, 0))
                let count = Int(sqlite3_column_bytes(statement, 1))
                guard let bytes = sqlite3_column_blob(statement, 1)?.assumingMemoryBound(to: UInt8.self),
                    let size = BM25Function.totalSize(UnsafeBufferPointer(start: bytes, count: count))
                else { continue }
                remember(size, of: rowid)
            }
        }
    }

    /// The `phrases` argument, read (``phrasesArgument(_:narrowedTo:)``).
    private struct QueryPhrases {
        /// For each phrase of the expression, the index of the query's phrase it is.
        var expression: [Int]
        /// The query's phrases, as keys of the connection's counts.
        var keys: [String]
        /// Whether the expression is narrower than the OR of the query's phrases.
        var isNarrowed: Bool

        /// `nil` unless `value` is text.
        init?(_ value: OpaquePointer?) {
            guard sqlite3_value_type(value) == SQLITE_TEXT, let text = sqlite3_value_text(value) else { return nil }
            let fields = String(cString: text).split(separator: "\u{1F}", omittingEmptySubsequences: false)
            keys = fields.dropFirst().map(String.init)
            isNarrowed = !fields[0].isEmpty
            expression = isNarrowed ? fields[0].split(separator: " ").map { Int($0) ?? -1 } : Array(keys.indices)
        }

        /// The expression's phrases that are each of the query's, or `nil` unless the expression
        /// has `expressionPhrases` phrases and each of the query's is among them.
        func occurrences(expressionPhrases: Int) -> [[Int32]]? {
            guard expression.count == expressionPhrases, expression.allSatisfy({ keys.indices.contains($0) }) else {
                return nil
            }
            var occurrences = [[Int32]](repeating: [], count: keys.count)
            for (place, phrase) in expression.enumerated() { occurrences[phrase].append(Int32(place)) }
            return occurrences.allSatisfy { !$0.isEmpty } ? occurrences : nil
        }
    }

    /// What `bm25()` computes once per query: each phrase's IDF, the mean row size, the weights.
    ///
    /// The phrases are the query's: each may stand at several places of the expression, and a
    /// row's frequency of it is the highest of those places' (FTS5 gives a phrase's instances in
    /// a row only where that part of the expression sits on the row).
    private final class QueryStatistics {
        private(set) var idf: [Double] = []
        /// For each of the query's phrases, its places in the expression.
        let occurrences: [[Int32]]
        let averageSize: Double
        let weights: [Double]
        let memory: ConnectionMemory
        /// FTS5's row count, and the connection, for ``ConnectionMemory/size(_:_:rows:db:)``.
        let rows: Int64
        let db: OpaquePointer?

        init(
            _ api: UnsafePointer<Fts5ExtensionApi>, _ context: OpaquePointer, phrases: QueryPhrases,
            weights: [Double], memory: ConnectionMemory, db: OpaquePointer?
        ) throws(Failure) {
            var rows: Int64 = 0
            var tokens: Int64 = 0
            try Failure.check(api.pointee.xRowCount(context, &rows))
            try Failure.check(api.pointee.xColumnTotalSize(context, -1, &tokens))
            guard let occurrences = phrases.occurrences(expressionPhrases: Int(api.pointee.xPhraseCount(context)))
            else { throw Failure(code: SQLITE_MISMATCH) }
            self.occurrences = occurrences
            self.averageSize = Double(tokens) / Double(rows)
            self.weights = weights
            self.memory = memory
            self.rows = rows
            self.db = db
            let boundsWanted = phrases.isNarrowed && occurrences.count > 1
            var phraseHits: [Int] = []
            var bounds: [Double] = []
            // A saturation is the weights' as well as the phrase's.
            let weighting = weights.map { "\($0)" }.joined(separator: " ") + "\u{1F}"
            for (phrase, places) in occurrences.enumerated() {
                let key = weighting + phrases.keys[phrase]
                let count: PhraseCount
                if let remembered = memory.phraseCounts[key], !boundsWanted || remembered.bestSaturation != nil {
                    count = remembered
                } else {
                    count = try passOverRows(api, context, phrase: places[0], measuringBound: boundsWanted)
                    memory.remember(count, of: key)
                }
                // As FTS5: a phrase in more than half of the rows would get a negative IDF.
                let value = log((Double(rows - count.hits) + 0.5) / (Double(count.hits) + 0.5))
                let idf = value <= 0 ? 1e-6 : value
                self.idf.append(idf)
                phraseHits.append(Int(count.hits))
                if let saturation = count.bestSaturation { bounds.append(idf * saturation) }
            }
            // A remembered count may carry a bound this query did not ask for.
            let counts = Counts(phraseHits: phraseHits, singlePhraseBounds: boundsWanted ? bounds : nil)
            if let db { BM25Function.counts.withLock { $0[db] = counts } }
        }

        /// Counts the rows holding the expression's phrase `phrase` (`xQueryPhrase`), and finds
        /// the highest saturation among them when `measuringBound`.
        private func passOverRows(
            _ api: UnsafePointer<Fts5ExtensionApi>, _ context: OpaquePointer, phrase: Int32, measuringBound: Bool
        ) throws(Failure) -> PhraseCount {
            let pass = PhrasePass(statistics: self, measuresBound: measuringBound)
            try withExtendedLifetime(pass) { () throws(Failure) in
                let code = api.pointee.xQueryPhrase(context, phrase, Unmanaged.passUnretained(pass).toOpaque()) {
                    api, context, pass in
                    guard let api, let context, let pass else { return SQLITE_MISUSE }
                    return Unmanaged<PhrasePass>.fromOpaque(pass).takeUnretainedValue().visit(api, context)
                }
                try Failure.check(code)
            }
            guard measuringBound else { return PhraseCount(hits: pass.hits, bestSaturation: nil) }
            // Past the rows measured, BM25's own bound: a saturation is below k1 + 1.
            let measuredAll = pass.hits <= PhrasePass.measuredRows
            return PhraseCount(hits: pass.hits, bestSaturation: measuredAll ? pass.bestSaturation : BM25Function.k1 + 1)
        }

        /// A phrase's weighted frequency in the current row of `context`: the sum of the weights
        /// of the columns of its instances.
        func frequency(_ api: UnsafePointer<Fts5ExtensionApi>, _ context: OpaquePointer, phrase: Int32)
            throws(Failure) -> Double
        {
            var frequency = 0.0
            var iterator = Fts5PhraseIter()
            var column: Int32 = 0
            var offset: Int32 = 0
            try Failure.check(api.pointee.xPhraseFirst(context, phrase, &iterator, &column, &offset))
            while column >= 0 {
                frequency += Int(column) < weights.count ? weights[Int(column)] : 1
                api.pointee.xPhraseNext(context, &iterator, &column, &offset)
            }
            return frequency
        }

        /// BM25's saturation of a frequency in a row of `size` tokens: a phrase's score is its
        /// IDF times this.
        func saturation(frequency: Double, size: Double) -> Double {
            let (k1, b) = (BM25Function.k1, BM25Function.b)
            return (frequency * (k1 + 1)) / (frequency + k1 * (1 - b + b * size / averageSize))
        }

        /// The BM25 score of the current row of `context` (higher is better).
        func score(_ api: UnsafePointer<Fts5ExtensionApi>, _ context: OpaquePointer) throws(Failure) -> Double {
            let size = Double(try memory.size(api, context, rows: rows, db: db))
            var score = 0.0
            // Each phrase's instances in turn (`xPhraseFirst`), not the list of all of them
            // (`xInstCount`), which FTS5 builds by merging the phrases' position lists in order:
            // each phrase's weights are summed in the same order either way, and the phrases'
            // terms in phrase order, as `bm25()` sums them.
            for (phrase, places) in occurrences.enumerated() {
                var frequency = try self.frequency(api, context, phrase: places[0])
                for place in places.dropFirst() {
                    frequency = max(frequency, try self.frequency(api, context, phrase: place))
                }
                score += idf[phrase] * saturation(frequency: frequency, size: size)
            }
            return score
        }
    }

    /// One pass over the rows holding a phrase (`xQueryPhrase`): it counts them, for the IDF,
    /// and when asked finds the highest saturation among them, for the bound of a row holding
    /// that phrase alone.
    private final class PhrasePass {
        /// The saturation is measured in at most this many rows. Measuring costs about three
        /// times counting; a phrase in more rows is common, its IDF low, and BM25's own bound,
        /// IDF × (k1 + 1), is low enough: the words that would cost most to measure are spared.
        static let measuredRows: Int64 = 32_768

        let statistics: QueryStatistics
        let measuresBound: Bool
        var hits: Int64 = 0
        var bestSaturation = 0.0

        init(statistics: QueryStatistics, measuresBound: Bool) {
            self.statistics = statistics
            self.measuresBound = measuresBound
        }

        func visit(_ api: UnsafePointer<Fts5ExtensionApi>, _ context: OpaquePointer) -> Int32 {
            hits += 1
            guard measuresBound, hits <= Self.measuredRows else { return SQLITE_OK }
            do throws(Failure) {
                let frequency = try statistics.frequency(api, context, phrase: 0)
                let size = Double(
                    try statistics.memory.size(api, context, rows: statistics.rows, db: statistics.db))
                bestSaturation = max(bestSaturation, statistics.saturation(frequency: frequency, size: size))
                return SQLITE_OK
            } catch {
                return error.code
            }
        }
    }
}
