import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

/// The one list of tables matches the schema the migrations make.
@Suite struct TableRegistryTests {
    @Test func everyTableOfTheSchemaIsRegistered() async throws {
        let kb = try TestKnowledgeBase.empty()
        let tables = try await kb.databaseWriter.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table'
                    AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'
                    -- FTS5's shadow tables belong to their virtual table.
                    AND name NOT IN ('fact_fts_data', 'fact_fts_idx', 'fact_fts_docsize', 'fact_fts_config')
                    """)
        }
        #expect(Set(tables) == Set(TableRegistry.all.map(\.name)))
        for table in TableRegistry.all where table.name != "fact_fts" {
            let columns = try await kb.databaseWriter.read { db in try db.columns(in: table.name).map(\.name) }
            #expect(columns.contains(table.key) || table.key == "rowid", "\(table.name)")
        }
    }

    @Test func theUndoLogTracksTheRegisteredTables() {
        #expect(TrackedTable.all.map(\.name) == TableRegistry.tables(with: .undoTracked).map(\.name))
        #expect(
            TrackedTable.all.map(\.key) == TableRegistry.tables(with: .undoTracked).map(\.key))
    }

    @Test func derivedAndLocalTablesAreNeverShipped() {
        for table in TableRegistry.all where !table.roles.isDisjoint(with: [.derived, .local]) {
            #expect(!table.roles.contains(.replicated), "\(table.name)")
        }
        #expect(RowIDs.tables == ["topic", "fact", "history", "fact_conflict", "operation"])
    }
}
