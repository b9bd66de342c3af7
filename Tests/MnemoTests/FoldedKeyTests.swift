import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

/// The folded keys (`content_key`, `path_key`) are the same on every platform: they come from
/// Mnemo's own Unicode tables and are pinned by `Fixtures/folded-keys.json`, which the reference
/// implementation in `Scripts/unicode/fold.py` wrote. A change to the fold fails these tests.
@Suite(.storesClosed) struct FoldedKeyTests {
    struct Golden: Decodable {
        struct Case: Decodable {
            var name: String
            var input: String
            var folded: String
            var factKey: String
        }

        struct Path: Decodable {
            var input: String
            var pathKey: String
        }

        var unicodeVersion: String
        var cases: [Case]
        var paths: [Path]
    }

    static let golden: Golden = {
        let url = ModelFixture.fixtures.appendingPathComponent("folded-keys.json")
        // swiftlint:disable:next force_try
        return try! JSONDecoder().decode(Golden.self, from: Data(contentsOf: url))
    }()

    @Test func theTablesAreTheFixturesUnicodeVersion() {
        #expect(FoldTables.unicodeVersion == Self.golden.unicodeVersion)
        #expect(Self.golden.cases.count >= 60)
    }

    @Test(arguments: golden.cases.map(\.name))
    func keysMatchTheGoldenFile(name: String) {
        let golden = Self.golden.cases.first { $0.name == name }!
        #expect(TextNormalization.folded(golden.input) == golden.folded, "\(golden.input.debugDescription)")
        #expect(TextNormalization.factKey(golden.input) == golden.factKey, "\(golden.input.debugDescription)")
    }

    @Test func pathKeysMatchTheGoldenFile() throws {
        for golden in Self.golden.paths {
            #expect(try TopicPath(golden.input).key == golden.pathKey, "\(golden.input)")
        }
    }

    /// What reaches the database is the key of the golden file, through the real write paths.
    @Test func storedKeysAreTheGoldenKeys() async throws {
        for golden in Self.golden.cases where !TextNormalization.trimmed(golden.input).isEmpty {
            let kb = try TestKnowledgeBase.empty()
            let id = try await kb.addFact(NewFact(content: golden.input, topicPath: "Keys")).id
            let stored = try await kb.databaseWriter.read { db in
                try String.fetchOne(db, sql: "SELECT content_key FROM fact WHERE id = ?", arguments: [id])
            }
            #expect(stored == golden.factKey, "\(golden.name)")
        }
        let kb = try TestKnowledgeBase.empty()
        for golden in Self.golden.paths {
            let topic = try await kb.createTopic(TopicPath(golden.input))
            let stored = try await kb.databaseWriter.read { db in
                try String.fetchOne(db, sql: "SELECT path_key FROM topic WHERE id = ?", arguments: [topic.id])
            }
            #expect(stored == golden.pathKey, "\(golden.input)")
        }
    }

    /// Equal keys are what make two spellings the same fact or the same topic.
    @Test(arguments: Backend.available) func spellingsThatFoldAlikeAreOneFactAndOneTopic(on backend: Backend)
        async throws
    {
        let kb = try await backend.empty()
        let first = try await kb.addFact(NewFact(content: "Tiếng Việt", topicPath: "Personal/Café"))
        let second = try await kb.addFact(
            NewFact(content: "TIE\u{0302}\u{0301}NG VIE\u{0323}\u{0302}T!", topicPath: "PERSONAL/CAFE\u{0301}"))
        #expect(second == .unchanged(second.fact))
        #expect(second.id == first.id)
        #expect(try await kb.topic(at: "personal/cafe")?.id == first.fact.topicID)
    }

    /// The ASCII fast paths give what the general, table-driven path gives.
    @Test func asciiFastPathsMatchTheGeneralFold() {
        let samples = [
            "Lives in Porto.", "lives in  porto", "Costs $5+", "Says \"hi\"!?", "A-B_C (d)...", " padded ",
            "TAB\tinside", "trailing $", "ends with }", "(", "", "x~", "100%",
        ]
        for sample in samples
            + (0..<128).map({ "a" + String(UnicodeScalar(UInt8($0))) + "B" + String(UnicodeScalar(UInt8($0))) })
        {
            let collapsed = TextNormalization.collapsingWhitespace(sample)
            #expect(collapsed == sample.split(whereSeparator: \.isWhitespace).joined(separator: " "))
            let general = KeyFolding.fold(collapsed)
            #expect(TextNormalization.folded(sample) == general, "\(sample.debugDescription)")
            var key = general.unicodeScalars
            while let last = key.last, FoldTables.isPunctuation(last.value) || FoldTables.isWhiteSpace(last.value) {
                key.removeLast()
            }
            #expect(TextNormalization.factKey(sample) == String(key), "\(sample.debugDescription)")
        }
    }
}

/// Migration "v5: portable folded keys" rewrites the keys that Foundation's folding stored.
@Suite(.storesClosed) struct PortableKeysMigrationTests {
    /// A database at the schema before v5, with keys as Foundation on Linux folded them.
    private func databaseBeforePortableKeys() throws -> String {
        let path = try TestKnowledgeBase.temporaryPath()
        let queue = try DatabaseQueue(path: path)
        try Schema.migrator.migrate(queue, upTo: "v3: operation log for undo")
        try queue.write { db in
            let now = "2025-01-01 00:00:00.000"
            func topic(
                _ id: Int64, parent: Int64?, name: String, nameKey: String, path: String, pathKey: String, depth: Int
            ) throws {
                try db.execute(
                    sql: """
                        INSERT INTO topic (id, namespace, parent_id, name, name_key, path, path_key, depth, created_at)
                        VALUES (?, 'default', ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [id, parent, name, nameKey, path, pathKey, depth, now])
            }
            // Foundation lower-cases Cherokee; Unicode case folding folds it to the capitals.
            try topic(1, parent: nil, name: "ᏣᎳᎩ", nameKey: "ꮳꮃꭹ", path: "ᏣᎳᎩ", pathKey: "ꮳꮃꭹ", depth: 1)
            try topic(2, parent: 1, name: "Notes", nameKey: "notes", path: "ᏣᎳᎩ/Notes", pathKey: "ꮳꮃꭹ/notes", depth: 2)
            // Foundation does not fold U+1C80 CYRILLIC SMALL LETTER ROUNDED VE; the tables fold it to в.
            try topic(3, parent: nil, name: "в", nameKey: "в", path: "в", pathKey: "в", depth: 1)
            try topic(
                4, parent: nil, name: "\u{1C80}", nameKey: "\u{1C80}", path: "\u{1C80}", pathKey: "\u{1C80}", depth: 1)
            try topic(5, parent: nil, name: "Café", nameKey: "cafe", path: "Café", pathKey: "cafe", depth: 1)
            func fact(_ id: Int64, topic: Int64, content: String, key: String) throws {
                try db.execute(
                    sql: """
                        INSERT INTO fact (id, namespace, topic_id, content, content_key, type, importance, confidence,
                                          created_at, updated_at)
                        VALUES (?, 'default', ?, ?, ?, 'fact', 2, 1, ?, ?)
                        """, arguments: [id, topic, content, key, now, now])
            }
            try fact(1, topic: 5, content: "Lives in Porto.", key: "lives in porto")
            try fact(2, topic: 5, content: "Straße in Köln", key: "strasse in koln")
            try fact(3, topic: 1, content: "ᏣᎳᎩ is a language", key: "ꮳꮃꭹ is a language")
            try fact(4, topic: 3, content: "вода", key: "вода")
            try fact(5, topic: 4, content: "\u{1C80}ода", key: "\u{1C80}ода")
        }
        return path
    }

    private func keys(_ kb: KnowledgeBase, _ sql: String) async throws -> [Int64: String] {
        try await kb.databaseWriter.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: sql).map { ($0[0] as Int64, $0[1] as String) })
        }
    }

    @Test func recomputesChangedKeysAndKeepsTheOthers() async throws {
        let kb = try KnowledgeBase(path: databaseBeforePortableKeys())
        let factKeys = try await keys(kb, "SELECT id, content_key FROM fact")
        #expect(
            factKeys == [
                1: "lives in porto", 2: "strasse in koln", 3: "ᏣᎳᎩ is a language",
                4: "вода", 5: "вода\u{1F}5",
            ])
        let pathKeys = try await keys(kb, "SELECT id, path_key FROM topic")
        #expect(pathKeys == [1: "ᏣᎳᎩ", 2: "ᏣᎳᎩ/notes", 3: "в", 4: "в\u{1F}4", 5: "cafe"])
        let nameKeys = try await keys(kb, "SELECT id, name_key FROM topic")
        #expect(nameKeys[1] == "ᏣᎳᎩ" && nameKeys[4] == "в\u{1F}4")
    }

    @Test func collidingRowsStayAndTheOlderOneIsTheMatch() async throws {
        let kb = try KnowledgeBase(path: databaseBeforePortableKeys())
        #expect(try await kb.stats().facts == 5)
        // Both spellings now name the older topic and the older fact.
        #expect(try await kb.topic(at: "\u{1C80}")?.id == 3)
        #expect(try await kb.topic(at: "ꮳꮃꭹ/NOTES")?.id == 2)
        let outcome = try await kb.addFact(NewFact(content: "\u{1C80}ОДА", topicPath: "в"))
        #expect(outcome == .unchanged(outcome.fact))
        #expect(outcome.id == 4)
        // The newer topic is still there, with its fact.
        #expect(try await kb.children(of: nil).map(\.id).sorted() == [1, 3, 4, 5])
        #expect(try await kb.fact(id: 5)?.content == "\u{1C80}ода")
    }

    @Test func aDatabaseWithPortableKeysIsLeftAlone() async throws {
        let path = try databaseBeforePortableKeys()
        let before = try await keys(KnowledgeBase(path: path), "SELECT id, content_key FROM fact")
        let after = try await keys(KnowledgeBase(path: path), "SELECT id, content_key FROM fact")
        #expect(before == after)
    }
}
