import GRDB

extension Schema {
    /// Recomputes every `content_key`, `name_key` and `path_key` with Mnemo's own Unicode tables
    /// (``KeyFolding``), replacing the keys that Foundation's platform-dependent folding wrote.
    ///
    /// For ordinary text the keys do not change (the fold keeps Foundation's rules); they change
    /// for the few characters whose case folding Foundation's tables do not know (Cherokee,
    /// Cyrillic Extended-C, …), and only those rows are written.
    ///
    /// Two rows can end up with the same key, when they differed only in such characters. No data
    /// is merged or lost: the older row (smaller id) keeps the key, and the newer one gets the key
    /// followed by U+001F (a control character real text does not hold) and its id. Two such
    /// facts stay two facts (a new exact duplicate merges into the older one); two such topics
    /// stay two topics, and a path names the older one.
    ///
    /// The migration reads and writes only those key columns, so it depends on no other migration
    /// after v1 and fires none of their triggers (full-text, change log and operation log
    /// triggers watch other columns or only run while an operation records). It computes keys with
    /// the current fold: should the fold change again, a later migration recomputes them and this
    /// one, run first, simply does work that the later one redoes.
    static func recomputeFoldedKeys(_ db: Database) throws {
        try recomputeTopicKeys(db)
        try recomputeFactKeys(db)
    }

    private static func recomputeFactKeys(_ db: Database) throws {
        var claimed: Set<String> = []
        var changed: [(id: Int64, key: String)] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT id, namespace, content, content_key FROM fact ORDER BY id")
        while let row = try rows.next() {
            let id: Int64 = row[0]
            let namespace: String = row[1]
            let content: String = row[2]
            let oldKey: String = row[3]
            var key = TextNormalization.factKey(content)
            if !claimed.insert(namespace + "\u{1F}" + key).inserted {
                key += "\u{1F}\(id)"
                claimed.insert(namespace + "\u{1F}" + key)
            }
            if key != oldKey { changed.append((id, key)) }
        }
        try rewrite(db, table: "fact", column: "content_key", changed)
    }

    private static func recomputeTopicKeys(_ db: Database) throws {
        var pathKeys: [Int64: String] = [:]
        var claimed: Set<String> = []
        var changedNames: [(id: Int64, key: String)] = []
        var changedPaths: [(id: Int64, key: String)] = []
        // Parents come before their children (depth order), so a child extends its parent's new key.
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT id, namespace, parent_id, name, name_key, path_key FROM topic ORDER BY depth, id
                """)
        while let row = try rows.next() {
            let id: Int64 = row[0]
            let namespace: String = row[1]
            let parentID: Int64? = row[2]
            let name: String = row[3]
            let (oldNameKey, oldPathKey): (String, String) = (row[4], row[5])
            let prefix = parentID.flatMap { pathKeys[$0] }.map { $0 + "/" } ?? ""
            var nameKey = TopicPath.key(ofSegment: name)
            if !claimed.insert(namespace + "\u{1F}" + prefix + nameKey).inserted {
                nameKey += "\u{1F}\(id)"
                claimed.insert(namespace + "\u{1F}" + prefix + nameKey)
            }
            let pathKey = prefix + nameKey
            pathKeys[id] = pathKey
            if nameKey != oldNameKey { changedNames.append((id, nameKey)) }
            if pathKey != oldPathKey { changedPaths.append((id, pathKey)) }
        }
        try rewrite(db, table: "topic", column: "name_key", changedNames)
        try rewrite(db, table: "topic", column: "path_key", changedPaths)
    }

    /// Writes new values into a column under a unique index: first a value no key can take, then
    /// the new key, so a row may take a key that another changed row gives up.
    private static func rewrite(_ db: Database, table: String, column: String, _ changes: [(id: Int64, key: String)])
        throws
    {
        guard !changes.isEmpty else { return }
        let park = try db.makeStatement(sql: "UPDATE \(table) SET \(column) = char(1) || id WHERE id = ?")
        for change in changes { try park.execute(arguments: [change.id]) }
        let write = try db.makeStatement(sql: "UPDATE \(table) SET \(column) = ? WHERE id = ?")
        for change in changes { try write.execute(arguments: [change.key, change.id]) }
    }
}
