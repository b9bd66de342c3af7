import Foundation

/// Reads a database's files byte by byte, as someone holding a copy of them could, to show
/// what an erase left behind.
package struct FileTraces {
    /// The lowercased bytes of the database file, its `-wal` and its `-shm`, by suffix.
    package let files: [String: Data]

    package init(databaseAt path: String) throws {
        var files: [String: Data] = [:]
        for suffix in ["", "-wal", "-shm"] {
            guard let data = FileManager.default.contents(atPath: path + suffix) else { continue }
            files[suffix] = Data(data.map { (65...90).contains($0) ? $0 + 32 : $0 })
        }
        self.files = files
    }

    /// The files in which `text` occurs, case-insensitively (ASCII).
    package func filesHolding(_ text: String) -> [String] {
        let needle = Data(text.lowercased().utf8)
        return files.filter { $0.value.range(of: needle) != nil }.map { $0.key.isEmpty ? "database" : $0.key }.sorted()
    }

    /// The sentences and words among `texts` that occur somewhere, with the files that hold them.
    /// A word is looked for by its first 7 letters, which survive the full-text index's stemming.
    package func found(_ texts: [String]) -> [String] {
        texts.flatMap { text -> [String] in
            let needle = text.contains(" ") ? text : String(text.prefix(7))
            let holders = filesHolding(needle)
            return holders.isEmpty ? [] : ["\"\(needle)\" in \(holders.joined(separator: ", "))"]
        }
    }
}
