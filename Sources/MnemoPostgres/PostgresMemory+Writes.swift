import Foundation
import GRDB
import Mnemo
import PostgresNIO

extension PostgresMemory {
    /// A write of a namespace's copy, recorded in the store in one PostgreSQL transaction.
    ///
    /// The namespace's row in `mnemo_namespace` is locked first (an upsert, see
    /// ``lockHead(of:_:)``), so writes of one namespace from any number of nodes run one at a
    /// time; the copy then catches up with the store and runs `updates` in a transaction with its
    /// row changes captured; the changes go to the store, and the copy's transaction commits only
    /// once PostgreSQL committed. So no reader on the node sees a write before it is acknowledged,
    /// a write the store refused is rolled back in the copy, and a node killed between the two
    /// commits finds its copy one version behind, which the log catches up.
    func write<T: Sendable>(
        namespace: String, on base: any DatabaseWriter, _ updates: @Sendable (Database) throws -> T
    ) async throws -> T {
        if let unavailable = unavailableError() { throw unavailable }
        let value = try await withoutActuallyEscaping(updates) { updates in
            let write = GroupedWrite { db in try updates(db) }
            if writeGroups.enqueue(write, namespace: namespace) {
                // The group commits in a task of its own: a caller that goes away (a client that
                // hung up) does not cancel the others' writes.
                Task { await self.commitGroups(of: namespace, on: base) }
            }
            return try await write.value
        }
        guard let value = value as? T else { throw CancellationError() }
        return value
    }

    /// Commits the next group of `namespace`'s queued writes, then hands on to the group queued
    /// meanwhile, until none waits.
    ///
    /// A group is one PostgreSQL transaction: the namespace's row is locked, the copy catches up
    /// and runs each write in a savepoint of one transaction of the copy (a write that fails is
    /// rolled back alone and answers its own error), each write's row changes get a version of
    /// their own in the log, as if they had come one at a time, and one statement records them
    /// all; the copy commits once PostgreSQL did. Writes that arrive while a group commits wait
    /// for the next one, so under load a namespace's writes cost a transaction's round trips
    /// per group, not per write.
    func commitGroups(of namespace: String, on base: any DatabaseWriter) async {
        while let group = writeGroups.nextGroup(of: namespace) {
            do {
                let (outcomes, erasing) = try await commit(group, of: namespace, on: base)
                var rewrite: Result<Void, any Error> = .success(())
                if !erasing.isEmpty {
                    do { try await rewriteTablesHoldingContent() } catch { rewrite = .failure(error) }
                }
                for (index, write) in group.enumerated() {
                    if erasing.contains(index), case .failure(let error) = rewrite {
                        write.finish(.failure(error))
                    } else {
                        write.finish(outcomes[index])
                    }
                }
            } catch {
                for write in group { write.finish(.failure(error)) }
            }
        }
    }

    /// One group's transaction (see ``commitGroups(of:on:)``): each write's outcome, and the
    /// positions of the writes that erased.
    private func commit(_ group: [GroupedWrite], of namespace: String, on base: any DatabaseWriter) async throws
        -> (outcomes: [Result<any Sendable, any Error>], erasing: Set<Int>)
    {
        let storeID = storeID
        return try await storeAccess("a write of \(namespace)", serializing: namespace) { connection in
            try await connection.query("BEGIN", logger: self.logger)
            var copyOpen = false
            do {
                let head = try await self.lockHead(of: namespace, connection)
                try await self.catchUp(namespace, base, to: head, connection, locked: true)
                copyOpen = true
                let (outcomes, recorded) = try await Deadline.excluding {
                    try await base.writeWithoutTransaction { db in
                        try db.execute(sql: "BEGIN IMMEDIATE")
                        do {
                            try RowCapture.prepare(db)
                            try RowIDs.setFloors(head.idFloors, db)
                            var outcomes: [Result<any Sendable, any Error>] = []
                            var versions: [Recorded.Version] = []
                            for (index, write) in group.enumerated() {
                                do {
                                    var value: (any Sendable)?
                                    try db.inSavepoint {
                                        value = try write.run(db)
                                        return .commit
                                    }
                                    let changes = try RowCapture.captured(db)
                                    try RowCapture.clear(db)
                                    if !changes.isEmpty {
                                        versions.append(
                                            .init(
                                                version: head.version + Int64(versions.count) + 1, write: index,
                                                changes: changes))
                                    }
                                    outcomes.append(.success(value as any Sendable))
                                } catch {
                                    outcomes.append(.failure(error))
                                }
                            }
                            guard let last = versions.last else {
                                return (outcomes, Recorded(versions: [], largestIDs: []))
                            }
                            try NamespaceCopy.setState(.init(store: storeID, version: last.version), db)
                            return (outcomes, Recorded(versions: versions, largestIDs: try RowIDs.largest(db)))
                        } catch {
                            try? db.execute(sql: "ROLLBACK")
                            throw CopyFailure(underlying: error)
                        }
                    }
                }
                if !recorded.versions.isEmpty {
                    try await self.record(recorded, namespace: namespace, floor: head.floor, connection)
                }
                try await connection.query("COMMIT", logger: self.logger)
                copyOpen = false
                let version = recorded.versions.last?.version ?? head.version
                await Deadline.excluding { await self.commitCopy(of: namespace, on: base, at: version) }
                let erasing = Set(recorded.versions.filter { $0.changes.contains(where: \.isErasure) }.map(\.write))
                return (outcomes, erasing)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: self.logger)
                if copyOpen { await Self.finish(base, "ROLLBACK") }
                throw error
            }
        }
    }

    /// Rewrites the store's tables that hold rows' content, after an erasure committed: the
    /// erased rows' dead versions stay in the table files until vacuum, and vacuum frees their
    /// space without overwriting it, so both tables are copied afresh (`VACUUM FULL`, which
    /// truncates the old files at its commit) before the erasure returns.
    ///
    /// `VACUUM FULL` copies a row version that a transaction still running may see (one whose
    /// snapshot predates the erasure, such as another node's catch-up or write), so the rewrite
    /// waits first for every transaction of the database that began before the erasure
    /// committed. The change log goes first: it waits for the statements reading it that began
    /// before the erasure. Both are locked while they are copied, so the writes of every
    /// namespace wait meanwhile (a rewrite's cost is measured in the Several servers article).
    /// Erasure takes what it takes: the storage timeout does not apply.
    func rewriteTablesHoldingContent() async throws {
        do {
            try await client.withConnection { connection in
                try await self.waitForEarlierTransactions(connection)
                try await connection.query("VACUUM (FULL) mnemo_change", logger: self.logger)
                try await connection.query("VACUUM (FULL) mnemo_row", logger: self.logger)
            }
        } catch {
            throw StoreErrors.mapped(error, location: location)
        }
    }

    /// Waits until no transaction from before now runs anywhere on the server (a snapshot taken
    /// after that cannot see the erased rows) and no other session of the database holds an
    /// older snapshot. The sessions of other roles show no snapshot (without `pg_read_all_stats`)
    /// and are not waited for; 32-bit transaction ids are compared by age (they wrap around).
    func waitForEarlierTransactions(_ connection: PostgresConnection) async throws {
        var bound = ""
        for try await text in try await connection.query(
            "SELECT pg_snapshot_xmax(pg_current_snapshot())::text", logger: logger
        ).decode(String.self) {
            bound = text
        }
        while true {
            var clear = false
            for try await done in try await connection.query(
                """
                SELECT pg_snapshot_xmin(pg_current_snapshot()) >= \(bound)::text::xid8 AND NOT EXISTS (
                    SELECT 1 FROM pg_stat_activity
                    WHERE datname = current_database() AND pid <> pg_backend_pid()
                        AND age(backend_xmin) > age((\(bound)::text::bigint % 4294967296)::text::xid))
                """, logger: logger
            ).decode(Bool.self) {
                clear = done
            }
            if clear { return }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Commits the copy's transaction once the store committed the write. The write is
    /// acknowledged whatever happens here, a cancellation of the task included: a copy that
    /// cannot commit is dropped, and loaded again on its next use.
    func commitCopy(of namespace: String, on base: any DatabaseWriter, at version: Int64) async {
        guard await Self.finish(base, "COMMIT") else { return await drop(namespace) }
        if let copy = await copies.existing(namespace) {
            copy.knownVersion.withLock { $0 = version }
            await copy.countVectors()
            await evictBeyondCap(keeping: namespace)
        }
    }

    /// Ends the copy's open transaction with `statement`; whether it succeeded. Through GRDB's
    /// callback API, which a cancellation of the task cannot stop (its async accesses stop when
    /// their task is cancelled, and would leave the transaction open).
    @discardableResult
    static func finish(_ base: any DatabaseWriter, _ statement: String) async -> Bool {
        await finish(base) { db in
            if db.isInsideTransaction { try db.execute(sql: statement) }
        }
    }

    /// Runs `ending` on the copy's writer through GRDB's callback API (see ``finish(_:_:)``);
    /// whether it succeeded.
    @discardableResult
    static func finish(_ base: any DatabaseWriter, _ ending: @escaping @Sendable (Database) throws -> Void) async
        -> Bool
    {
        await withCheckedContinuation { done in
            base.asyncWriteWithoutTransaction { db in
                do {
                    try ending(db)
                    done.resume(returning: true)
                } catch {
                    done.resume(returning: false)
                }
            }
        }
    }

    /// A namespace's version and log floor in the store (0 and 0 for a namespace never written).
    func head(of namespace: String, _ connection: PostgresConnection) async throws -> Head {
        let query: PostgresQuery = "SELECT version, log_floor FROM mnemo_namespace WHERE namespace = \(namespace)"
        for try await (version, floor) in try await connection.query(query, logger: logger).decode((Int64, Int64).self)
        {
            return Head(version: version, floor: floor)
        }
        return Head(version: 0, floor: 0)
    }

    /// Creates the namespace's row if it is new, locks it until the transaction ends (writes of
    /// the namespace from every node queue here) and returns it with the largest ids of all
    /// namespaces' tables (the floors of the write's new ids, see `RowIDs`): one round trip.
    func lockHead(of namespace: String, _ connection: PostgresConnection) async throws -> Head {
        let rows = try await connection.query(
            """
            WITH head AS (
                INSERT INTO mnemo_namespace (namespace) VALUES (\(namespace))
                ON CONFLICT (namespace) DO UPDATE SET namespace = excluded.namespace
                RETURNING version, log_floor)
            SELECT version, log_floor, ARRAY(
                SELECT COALESCE((SELECT max(largest) FROM mnemo_id_max WHERE table_name = t), 0)
                FROM unnest(\(RowIDs.tables)::text[]) WITH ORDINALITY AS tables (t, position) ORDER BY position)
            FROM head
            """, logger: logger)
        for try await (version, floor, idFloors) in rows.decode((Int64, Int64, [Int64]).self) {
            return Head(version: version, floor: floor, idFloors: idFloors)
        }
        return Head(version: 0, floor: 0)
    }

    struct Head {
        var version: Int64
        var floor: Int64
        /// With a lock: the largest id of each of `RowIDs.tables` in the store.
        var idFloors: [Int64] = []
    }

    /// What a group of writes records in the store: each write's row changes with the version
    /// it gets, and the copy's largest ids after them all.
    struct Recorded: Sendable {
        struct Version: Sendable {
            var version: Int64
            /// The write's position in its group.
            var write: Int
            var changes: [RowChange]
        }

        var versions: [Version]
        var largestIDs: [Int64]
    }

    /// Catches the copy up with the store, if another node wrote since.
    /// - Returns: whether the copy changed (or was never counted).
    ///
    /// The usual case, nothing new, is one primary-key read (shared with the requests that
    /// arrive while it is on the wire, see ``VersionCheck``), without the copy's lock; only a copy
    /// that must change waits for its lock.
    @discardableResult
    func refresh(_ copy: NamespaceCopy) async throws -> Bool {
        let namespace = copy.namespace
        let base = copy.writer
        if let known = copy.knownVersion.withLock({ $0 }) {
            let check = copy.versionCheck
            let head = try await withDeadline(options.timeout, "reading \(namespace)") { try await check.current() }
            if head.version == known { return false }
        }
        let changed = try await storeAccess("reading \(namespace)", serializing: namespace) { connection in
            let local = try await base.readReleasingFirst { db in try NamespaceCopy.state(db) }
            let head = try await self.head(of: namespace, connection)
            guard local?.version != head.version else {
                copy.knownVersion.withLock { $0 = head.version }
                return false
            }
            try await self.catchUp(namespace, base, to: head, connection, locked: false)
            copy.knownVersion.withLock { $0 = head.version }
            return true
        }
        copy.usage.withLock { $0.versionsBehind = 0 }
        return changed
    }

    /// Brings the copy to `head`: the changes after its version from the log when the log still
    /// holds them all, else the namespace's rows afresh.
    func catchUp(
        _ namespace: String, _ base: any DatabaseWriter, to head: Head, _ connection: PostgresConnection, locked: Bool
    ) async throws {
        // A copy never commits a write before the store does; one ahead of the store (a store
        // restored from a backup) loads afresh.
        let local =
            try await base.readReleasingFirst { db in try NamespaceCopy.state(db) }
            ?? .init(store: storeID, version: 0)
        guard local.version != head.version else { return }
        if local.version > 0, local.version < head.version, local.version >= head.floor,
            try await replayCostsLess(namespace, after: local.version, upTo: head.version, connection)
        {
            var changes: [(version: Int64, change: RowChange)] = []
            let rows = try await connection.query(
                """
                SELECT version, table_name, kind, row_id, new_row_id, row_values FROM mnemo_change
                WHERE namespace = \(namespace) AND version > \(local.version) AND version <= \(head.version)
                ORDER BY version, position
                """, logger: logger)
            for try await (version, table, kind, rowID, newRowID, values) in rows.decode(
                (Int64, String, String, Int64, Int64, String).self)
            {
                Deadline.progressed()
                changes.append(
                    (
                        version,
                        RowChange(
                            table: table, kind: .init(rawValue: kind) ?? .update, rowID: rowID, newRowID: newRowID,
                            values: values)
                    ))
            }
            let versions = Set(changes.map(\.version))
            if versions.count == head.version - local.version {
                let changes = changes.map(\.change)
                let erases = changes.contains(where: \.isErasure)
                let storeID = storeID
                try await Deadline.excluding {
                    try await base.write { db in
                        // Another task may have applied them meanwhile.
                        guard try NamespaceCopy.state(db)?.version ?? 0 == local.version else { return }
                        // Foreign keys are checked at commit, as where the changes were made (an
                        // undo restores a fact's rows in any order).
                        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
                        try RowCapture.prepare(db)
                        try RowCapture.apply(changes, db)
                        try RowCapture.clear(db)
                        // Scrubbed as an erase on a single file is (see `FactEraser`).
                        if erases { try FactEraser.rewriteFullTextIndex(db) }
                        try NamespaceCopy.setState(.init(store: storeID, version: head.version), db)
                    }
                }
                if erases {
                    _ = await FactEraser.truncateLog(of: base)
                    KnowledgeBase.removeSavedVectorGraphs(ofDatabaseAt: base.path)
                }
                return
            }
        }
        try await reload(namespace, base, connection, locked: locked)
        // A copy that held rows loads afresh after an erasure (it raises the log's floor past
        // every copy behind): none of its old pages may stay in the log. (A first load held none.)
        if local.version > 0 {
            _ = await FactEraser.truncateLog(of: base)
            KnowledgeBase.removeSavedVectorGraphs(ofDatabaseAt: base.path)
        }
    }

    /// Whether applying the log's changes after `version` costs less than loading the
    /// namespace's rows afresh. A change is one statement, while rows load 500 to a statement: a
    /// change costs about ten times a row (measured on 100,000 facts: 250 µs against 25 µs). So
    /// a few hundred changes are applied at once (one query counts them); more only when they are
    /// fewer than a tenth of the rows.
    func replayCostsLess(_ namespace: String, after version: Int64, upTo head: Int64, _ connection: PostgresConnection)
        async throws -> Bool
    {
        let counted = try await connection.query(
            """
            SELECT changes, CASE WHEN changes > 200
                THEN (SELECT count(*) FROM mnemo_row WHERE namespace = \(namespace)) ELSE 0 END
            FROM (SELECT count(*) AS changes FROM mnemo_change
                  WHERE namespace = \(namespace) AND version > \(version) AND version <= \(head)) AS log
            """, logger: logger)
        for try await (changes, rows) in counted.decode((Int64, Int64).self) {
            return changes <= 200 || changes < rows / 10
        }
        return false
    }

    /// Replaces the copy's rows with the namespace's rows in the store, read in one snapshot.
    ///
    /// Within a write the namespace's row lock already keeps the rows still; otherwise they are
    /// read in a repeatable-read transaction. The rows go into the copy as they arrive, a batch at
    /// a time, in one transaction of the copy that commits after the last: a node holds a batch
    /// of a large namespace in memory, not all of it, and readers of the copy see the old rows
    /// until the new ones are all in. (Accesses of the copy's writer are serialized with this
    /// one by the namespace's mutex, as a write's are.)
    func reload(_ namespace: String, _ base: any DatabaseWriter, _ connection: PostgresConnection, locked: Bool)
        async throws
    {
        if !locked { try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ", logger: logger) }
        var copyOpen = false
        do {
            let head = try await self.head(of: namespace, connection)
            // From here a failure abandons the load, however far it got (see `abandonLoad`).
            copyOpen = true
            try await Deadline.excluding { try await base.writeWithoutTransaction(RowLoad.begin) }
            let rows = try await connection.query(
                "SELECT table_name, row_values FROM mnemo_row WHERE namespace = \(namespace) ORDER BY table_name, row_id",
                logger: logger)
            var batch = RowLoad.Batch()
            for try await (table, values) in rows.decode((String, String).self) {
                Deadline.progressed()
                // Only the tables this version shares are loaded; a row of another table stays out.
                guard RowCapture.key(of: table) != nil else { continue }
                if !batch.accepts(table: table, values: values) {
                    let full = batch
                    try await Deadline.excluding {
                        try await base.writeWithoutTransaction { db in try full.insert(db) }
                    }
                    batch = RowLoad.Batch()
                }
                batch.append(table: table, values: values)
            }
            let last = batch
            let state = NamespaceCopy.State(store: storeID, version: head.version)
            try await Deadline.excluding {
                try await base.writeWithoutTransaction { db in
                    try last.insert(db)
                    try RowLoad.commit(db) { db in try NamespaceCopy.setState(state, db) }
                }
            }
            copyOpen = false
            if !locked { try await connection.query("COMMIT", logger: logger) }
        } catch {
            if !locked { _ = try? await connection.query("ROLLBACK", logger: logger) }
            if copyOpen { await Self.finish(base, RowLoad.abandon) }
            throw error
        }
    }

    /// Writes a group's changes to the store: the log (a version per write), the rows as they
    /// are now, the largest ids, the version, and a notification for the other nodes (sent by
    /// PostgreSQL at commit).
    func record(_ recorded: Recorded, namespace: String, floor: Int64, _ connection: PostgresConnection)
        async throws
    {
        guard let first = recorded.versions.first?.version, let version = recorded.versions.last?.version else {
            return
        }
        let (current, removed) = RowChange.finalRows(recorded.versions.flatMap(\.changes))
        // An erasure leaves no trace in the log: the versions before it go (those of the same
        // group included), and nodes behind it load the namespace afresh. Otherwise the log keeps
        // its last thousand versions.
        let erasures = recorded.versions.filter { $0.changes.contains(where: \.isErasure) }.map(\.version)
        let newFloor =
            erasures.max().map { $0 - 1 }
            ?? ((first...version).contains { $0 % 100 == 0 } ? max(floor, version - 1_000) : floor)
        if newFloor > floor {
            try await connection.query(
                "DELETE FROM mnemo_change WHERE namespace = \(namespace) AND version <= \(newFloor)", logger: logger)
        }
        var versions: [Int64] = []
        var positions: [Int32] = []
        var changes: [RowChange] = []
        for logged in recorded.versions where logged.version > newFloor {
            for (position, change) in logged.changes.enumerated() {
                versions.append(logged.version)
                positions.append(Int32(position))
                changes.append(change)
            }
        }
        // One round trip: the log, the rows as they are now (no key is both removed and kept),
        // the largest ids, the version, and the notifications PostgreSQL sends the other nodes at
        // commit (after an erasure, a second one: nodes drop the copies they keep closed).
        let payload = "\(version) \(namespace)"
        let erasure = Self.erasureNotice + namespace
        let erased = !erasures.isEmpty
        try await connection.query(
            """
            WITH logged AS (
                INSERT INTO mnemo_change (namespace, version, position, table_name, kind, row_id, new_row_id, row_values)
                SELECT \(namespace), * FROM unnest(
                    \(versions)::int8[], \(positions)::int[], \(changes.map(\.table))::text[],
                    \(changes.map(\.kind.rawValue))::text[], \(changes.map(\.rowID))::int8[],
                    \(changes.map(\.newRowID))::int8[], \(changes.map(\.values))::text[])
            ), removed AS (
                DELETE FROM mnemo_row WHERE namespace = \(namespace) AND (table_name, row_id) IN (
                    SELECT * FROM unnest(\(removed.map(\.table))::text[], \(removed.map(\.row))::int8[]))
            ), kept AS (
                INSERT INTO mnemo_row (namespace, table_name, row_id, row_values)
                SELECT \(namespace), * FROM unnest(
                    \(current.map(\.table))::text[], \(current.map(\.row))::int8[], \(current.map(\.values))::text[])
                ON CONFLICT (namespace, table_name, row_id) DO UPDATE SET row_values = excluded.row_values
            ), ids AS (
                INSERT INTO mnemo_id_max (namespace, table_name, largest)
                SELECT \(namespace), * FROM unnest(\(RowIDs.tables)::text[], \(recorded.largestIDs)::int8[])
                ON CONFLICT (namespace, table_name) DO UPDATE SET largest = excluded.largest
                WHERE mnemo_id_max.largest <> excluded.largest
            ), head AS (
                UPDATE mnemo_namespace SET version = \(version), log_floor = \(newFloor)
                WHERE namespace = \(namespace) RETURNING version
            )
            SELECT pg_notify('mnemo_change', \(payload)) FROM head
            UNION ALL SELECT pg_notify('mnemo_change', \(erasure)) FROM head WHERE \(erased)
            """, logger: logger)
    }

    /// Closes a namespace's copy and deletes its files: it is loaded afresh on its next use.
    func drop(_ namespace: String) async {
        guard let copy = await copies.existing(namespace) else { return }
        await copies.remove(namespace)
        NamespaceCopy.removeFiles(at: copy.path)
    }
}
