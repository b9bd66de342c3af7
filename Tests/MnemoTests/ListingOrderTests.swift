import Foundation
import GRDB
import MnemoTestSupport
import Testing

@testable import Mnemo

/// Listing reads a page in the order of an index, so that its cost is the page's, not the
/// namespace's.
@Suite struct ListingOrderTests {
    @Test func aPageIsReadInTheIndexOrderWithoutSortingTheNamespace() async throws {
        let contents = [
            "Grows tomatoes on the balcony", "Runs on Tuesday mornings", "Reads science fiction at night",
            "Keeps a sourdough starter", "Learns Portuguese on the train", "Plays chess online",
            "Prefers tea to coffee", "Cycles to the office", "Collects vinyl records",
        ]
        let kb = try await TestKnowledgeBase.with(
            contents.enumerated().map { index, content in
                NewFact(content: content, topicPath: "Home", importance: [.low, .medium, .high][index % 3])
            })
        let page = try await kb.facts(limit: 5)
        let all = try await kb.facts(limit: 100)
        #expect(page.map(\.id) == Array(all.prefix(5)).map(\.id))
        #expect(all.map(\.importance.rank) == all.map(\.importance.rank).sorted(by: >))

        let namespace = kb.namespace
        let plan = try await kb.writer.base.read { db in
            let statements = Locked<[String]>([])
            db.trace(options: .statement) { event in
                if case .statement(let statement) = event { statements.withLock { $0.append(statement.expandedSQL) } }
            }
            _ = try FactTable.list(db, namespace: namespace, filter: FactFilter(), limit: 50, offset: 0)
            db.trace(options: [])
            let listing = try #require(statements.withLock { $0 }.last { $0.contains("ORDER BY") })
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + listing).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("fact_on_namespace_active_listing") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }
}
