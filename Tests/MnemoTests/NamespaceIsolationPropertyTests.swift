import Foundation
import MnemoEvaluation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// Namespace isolation as a property: random operations in two namespaces of one database
/// (adds with exact and near duplicates, updates, deactivation, deletion, topic renames, moves,
/// merges and deletes, dedupe, ingest with hostile records) never let one namespace see or
/// change the other's facts, topics or history.
@Suite("Namespace isolation (property)")
struct NamespaceIsolationPropertyTests {
    /// Everything a namespace holds, as its owner can read it.
    struct State: Equatable {
        var export: [String]
        var topics: [String]
        var history: [String]
    }

    static func state(_ kb: KnowledgeBase) async throws -> State {
        var export: [String] = []
        for try await line in kb.exportedLines() { export.append(line) }
        let facts = try await kb.facts(matching: FactFilter(activity: .all), limit: 10_000)
        var history: [String] = []
        for fact in facts {
            history += try await kb.history(ofFact: fact.id).map { event in
                "\(fact.id) \(event.kind) "
                    + event.details.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            }
        }
        return State(export: export, topics: try await kb.subtreePaths(), history: history)
    }

    static let words = ["tea", "coffee", "bees", "cello", "Porto", "Braga", "chess", "yoga", "sailing", "bread"]
    static let topics = [
        "Food", "Food/Drinks", "Hobbies", "Hobbies/Music", "Health and Fitness", "Health & Fitness", "Places",
    ]
    /// Near-duplicate pairs whose vectors are pinned at cosine 0.9, so merges really happen.
    static let pairs = [
        ("I prefer tea to coffee", "Prefers tea over coffee"), ("Plays the cello every day", "Plays the cello daily"),
    ]

    static func embedder() -> SeededEmbedder {
        var pinned: [String: [Float]] = [:]
        for (i, (a, b)) in pairs.enumerated() {
            var first = [Float](repeating: 0, count: 32)
            var second = first
            first[2 * i] = 1
            second[2 * i] = 0.9
            second[2 * i + 1] = 0.43589
            pinned[a] = first
            pinned[b] = second
        }
        return SeededEmbedder(pinned: pinned)
    }

    @Test(arguments: [1, 2] as [UInt64])
    func nothingCrossesNamespacesUnderRandomOperations(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        let path = try TestKnowledgeBase.temporaryPath()
        let alice = try KnowledgeBase(path: path, namespace: "alice", embedder: Self.embedder())
        let bob = try KnowledgeBase(path: path, namespace: "bob", embedder: Self.embedder())
        let spaces = [alice, bob]

        for step in 0..<40 {
            let actorIndex = Int(random.next() % 2)
            let (actor, other) = (spaces[actorIndex], spaces[1 - actorIndex])
            let before = try await Self.state(other)
            let ids = try await actor.facts(matching: FactFilter(activity: .all), limit: 1_000).map(\.id)
            let otherIDs = try await other.facts(matching: FactFilter(activity: .all), limit: 1_000).map(\.id)
            let operation = random.next() % 12
            var described = ""
            do {
                switch operation {
                case 0, 1:
                    let content =
                        random.next() % 3 == 0
                        ? pick(Self.pairs.flatMap { [$0.0, $0.1] })
                        : "Likes \(pick(Self.words)) and \(pick(Self.words))"
                    described = "add \(content)"
                    try await actor.addFact(NewFact(content: content, topicPath: TopicPath(pick(Self.topics))))
                case 2:
                    described = "ingest with a hostile record"
                    let line =
                        #"{"content": "Likes \#(pick(Self.words))", "topic": "\#(pick(Self.topics))"}"#
                        + "\n" + #"{"content": "Injected \#(step)", "namespace": "\#(other.namespace)"}"#
                    _ = try await actor.ingest(data: Data(line.utf8))
                case 3:
                    // Ids of the other namespace, tried through this one, must all fail.
                    described = "write by foreign id"
                    for id in otherIDs.prefix(3) {
                        _ = try? await actor.updateFact(id: id, FactUpdate(content: "hacked \(step)"))
                        _ = try? await actor.deactivateFact(id: id)
                        try? await actor.deleteFact(id: id)
                    }
                case 4 where !ids.isEmpty:
                    described = "update"
                    try await actor.updateFact(
                        id: pick(ids),
                        FactUpdate(
                            content: "Changed \(step) \(pick(Self.words))",
                            importance: pick(Importance.allCases)))
                case 5 where !ids.isEmpty:
                    described = "deactivate or reactivate"
                    let id = pick(ids)
                    if try await actor.fact(id: id)?.isActive == true {
                        try await actor.deactivateFact(id: id)
                    } else {
                        try await actor.reactivateFact(id: id)
                    }
                case 6 where !ids.isEmpty:
                    described = "delete"
                    try await actor.deleteFact(id: pick(ids))
                case 7:
                    described = "merge topics"
                    _ = try await actor.mergeTopics(
                        [try TopicPath(pick(Self.topics))], into: TopicPath(pick(Self.topics)))
                case 8:
                    described = "dedupe"
                    _ = try await actor.dedupe()
                case 9:
                    described = "rename topic"
                    _ = try await actor.renameTopic(TopicPath(pick(Self.topics)), to: "Renamed \(step)")
                case 10:
                    described = "delete topic"
                    _ = try await actor.deleteTopic(TopicPath(pick(Self.topics)), cascade: true)
                default:
                    described = "move topic"
                    _ = try await actor.moveTopic(
                        TopicPath(pick(Self.topics)),
                        under: pick(Self.topics + [nil as String?]).map { try TopicPath($0) })
                }
            } catch is MnemoError {
                // Operations on topics or ids that do not exist in this namespace fail; that is fine.
            }
            let after = try await Self.state(other)
            #expect(
                after == before, "seed \(seed) step \(step): \(actor.namespace) \(described) changed \(other.namespace)"
            )
            // Every search mode sees only the actor's own facts.
            for mode in [SearchMode.text, .semantic, .hybrid] {
                var query = SearchQuery("Likes \(pick(Self.words)) Injected hacked", mode: mode, limit: 100)
                query.filter.activity = .all
                let hits = try await actor.search(query)
                #expect(hits.allSatisfy { $0.fact.namespace == actor.namespace }, "seed \(seed) step \(step) \(mode)")
            }
        }
        // The injected records never landed anywhere.
        for kb in spaces {
            #expect(
                try await kb.facts(matching: FactFilter(activity: .all), limit: 1_000).allSatisfy {
                    !$0.content.hasPrefix("Injected")
                })
        }
    }
}

extension KnowledgeBase {
    /// Every topic path of the namespace, sorted.
    func subtreePaths() async throws -> [String] {
        func flatten(_ nodes: [TopicNode]) -> [String] { nodes.flatMap { [$0.topic.path] + flatten($0.children) } }
        return flatten(try await topicTree()).sorted()
    }
}
