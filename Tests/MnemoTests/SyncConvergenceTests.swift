import Foundation
import MnemoTestSupport
import Testing

@testable import Mnemo

/// Three devices and a server, each seed a different story of offline operations (topic merges,
/// renames and moves among them) and syncs in random order, with syncs cut off before or after the server answered: after every device
/// syncs twice, every replica holds the same facts, none twice, and a sentence that was erased
/// is in no file's bytes.
///
/// `MNEMO_SYNC_SEEDS` sets how many seeds run (100 by default) and `MNEMO_SYNC_OPERATIONS` how
/// many operations each makes (200 by default).
@Suite("Sync convergence", .storesClosed)
struct SyncConvergenceTests {
    static let seeds = Int(ProcessInfo.processInfo.environment["MNEMO_SYNC_SEEDS"] ?? "") ?? 100
    static let operations = Int(ProcessInfo.processInfo.environment["MNEMO_SYNC_OPERATIONS"] ?? "") ?? 200
    static let planted = "The vault code is Quarrelsome Heron 5531"

    /// Statements the devices draw from: the same sentence on two devices, paraphrases and
    /// contradictions (pinned in ``SyncTests/embedder()``) among them.
    static let pool: [String] =
        (0..<24).map { "Fact \($0) about the garden" } + [
            "Rent is 850 euros a month", "Rent is €950 a month", "Tom reports to me", "Tom is one of my direct reports",
            planted,
        ]

    /// Seeds run side by side, as many at a time as the machine has cores: each is a world of
    /// its own files.
    @Test func replicasConvergeWhateverTheOrder() async throws {
        let only = ProcessInfo.processInfo.environment["MNEMO_SYNC_SEED"].flatMap(Int.init)
        let seeds = (0..<Self.seeds).filter { only == nil || only == $0 }
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        var problems: [String] = []
        try await withThrowingTaskGroup(of: [String].self) { group in
            var next = seeds.makeIterator()
            func start() {
                guard let seed = next.next() else { return }
                group.addTask {
                    do { return try await Self.run(seed: UInt64(seed)) } catch { return ["seed \(seed): \(error)"] }
                }
            }
            for _ in 0..<width { start() }
            while let found = try await group.next() {
                problems += found
                start()
            }
        }
        for problem in problems { Issue.record(Comment(rawValue: problem)) }
    }

    /// Runs one seed's story and returns what went wrong.
    static func run(seed: UInt64) async throws -> [String] {
        var problems: [String] = []
        var random = SplitMix(seed: seed)
        let world = try SyncTests.World(devices: 3)
        let cut = CutTransport(base: world.transport, seed: seed)
        var plantedErased = false
        var plantedAdded = false
        let trace = ProcessInfo.processInfo.environment["MNEMO_SYNC_SEED"] != nil
        for _ in 0..<operations {
            let device = random.below(3)
            let kb = world.devices[device]
            let facts = try await kb.snapshot().facts
            let fact = facts.isEmpty ? nil : facts[random.below(facts.count)]
            let roll = random.below(22)
            if trace {
                print("TRACE d\(device) op \(roll) on \(fact.map { "\($0.uid.prefix(8)) \($0.content)" } ?? "-")")
            }
            switch roll {
            case 0..<6:
                let content = pool[random.below(pool.count)]
                // The planted sentence is added once: its erasure must then leave it nowhere.
                if content == planted {
                    if plantedAdded { continue }
                    plantedAdded = true
                }
                try await kb.addFact(
                    NewFact(
                        content: content, topicPath: TopicPath(validSegments: ["T\(random.below(3))"]),
                        sources: ["d\(device)"]))
            case 6..<8:
                guard let fact else { continue }
                try await kb.updateFact(id: fact.id, FactUpdate(importance: Importance.allCases[random.below(4)]))
            case 8:
                guard let fact else { continue }
                try await kb.updateFact(
                    id: fact.id, FactUpdate(topicPath: TopicPath(validSegments: ["T\(random.below(3))"])))
            case 9:
                guard let fact else { continue }
                if fact.isActive {
                    try await kb.deactivateFact(id: fact.id)
                } else {
                    try await kb.reactivateFact(id: fact.id)
                }
            case 10:
                guard let fact else { continue }
                try await kb.deleteFact(id: fact.id)
            case 11:
                // An undo may meet rows a later write changed: then it is refused, as it should be.
                _ = try? await kb.undo()
            case 12:
                guard let fact, random.below(3) == 0 || fact.content == planted else { continue }
                if fact.content == planted { plantedErased = true }
                try await kb.eraseFacts(ids: [fact.id])
            case 13:
                // A topic that is not there (merged away already) is refused: nothing to sync.
                let (source, target) = (random.below(3), random.below(3))
                guard source != target else { continue }
                _ = try? await kb.mergeTopics(
                    [TopicPath(validSegments: ["T\(source)"])], into: TopicPath(validSegments: ["T\(target)"]))
            case 14:
                let (source, target) = (random.below(3), random.below(4))
                guard source != target else { continue }
                if random.below(2) == 0 {
                    _ = try? await kb.renameTopic(TopicPath(validSegments: ["T\(source)"]), to: "T\(target)")
                } else {
                    _ = try? await kb.moveTopic(
                        TopicPath(validSegments: ["T\(source)"]), under: TopicPath(validSegments: ["T\(target)"]))
                }
            default:
                // A sync, cut off now and then before or after the server answered.
                do {
                    let report = try await kb.sync(with: cut)
                    if trace { print("TRACE   synced \(report)") }
                } catch {
                    if trace { print("TRACE   cut \(error)") }
                }
            }
        }
        for _ in 0..<2 {
            for device in 0..<3 {
                if trace { print("TRACE final sync d\(device)") }
                try await world.devices[device].sync(with: CutTransport(base: world.transport, seed: seed, cuts: false))
            }
        }
        // A local edit that changed nothing at the server (a value set twice) leaves the
        // device's `updated_at`: sync times are not compared.
        let states = try await world.states().map {
            $0.map { fact in
                var fact = fact
                fact.updatedAt = fact.createdAt
                return fact
            }
        }
        for (index, state) in states.enumerated() where state != states[0] {
            let extra = Set(state).subtracting(states[0]).map {
                "\($0.uid.prefix(8)) \($0.content) active \($0.isActive) \($0.importance) \($0.topic) x\($0.mentionCount) \($0.sources) \($0.createdAt.timeIntervalSince1970) \($0.updatedAt.timeIntervalSince1970)"
            }
            let missing = Set(states[0]).subtracting(state).map {
                "\($0.uid.prefix(8)) \($0.content) active \($0.isActive) \($0.importance) \($0.topic) x\($0.mentionCount) \($0.sources) \($0.createdAt.timeIntervalSince1970) \($0.updatedAt.timeIntervalSince1970)"
            }
            problems.append(
                "seed \(seed): replica \(index) differs from the server: has \(extra.sorted()), lacks \(missing.sorted())"
            )
        }
        for (index, state) in states.enumerated() {
            let keys = state.map { TextNormalization.factKey($0.content) }
            if Set(keys).count != keys.count { problems.append("seed \(seed): replica \(index) holds a fact twice") }
        }
        if plantedErased {
            for (index, path) in ([world.serverPath] + world.devicePaths).enumerated() {
                let traces = try FileTraces(databaseAt: path)
                if !states[0].contains(where: { $0.content == planted }) {
                    let found = traces.found([planted])
                    if !found.isEmpty {
                        problems.append("seed \(seed): the erased sentence is in replica \(index)'s file: \(found)")
                    }
                }
            }
        }
        return problems
    }
}

/// A transport that cuts some exchanges off: before the server got the push (nothing applied)
/// or after it answered (applied, answer lost), as a killed app or a dropped connection does.
final class CutTransport: SyncTransport, @unchecked Sendable {
    struct Cut: Error {}

    let base: InProcessSyncTransport
    let trace = ProcessInfo.processInfo.environment["MNEMO_SYNC_SEED"] != nil
    private let lock = NSLock()
    private var random: SplitMix

    /// Whether it cuts: a transport that does not only traces (with `MNEMO_SYNC_SEED`).
    let cuts: Bool

    init(base: InProcessSyncTransport, seed: UInt64, cuts: Bool = true) {
        self.base = base
        self.cuts = cuts
        self.random = SplitMix(seed: seed ^ 0xC07)
    }

    private func roll() -> Int {
        guard cuts else { return 1 }
        lock.lock()
        defer { lock.unlock() }
        return random.below(10)
    }

    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        if roll() == 0 { throw Cut() }
        let response = try await base.push(request)
        if trace {
            for (operation, answer) in zip(request.operations, response.answers) {
                print(
                    "TRACE   push \(request.device.prefix(4)) \(operation.id.suffix(4)) \(operation.kind) \(operation.uid.prefix(8)) \(operation.fields ?? []) -> \(answer.outcome) \(answer.uid.prefix(8))"
                )
            }
        }
        if roll() == 0 {
            if trace { print("TRACE   answer lost") }
            throw Cut()
        }
        return response
    }

    func pull(after cursor: String, server: String, limit: Int, model: EmbeddingModelIdentity?) async throws
        -> SyncPullResponse
    {
        let response = try await base.pull(after: cursor, server: server, limit: limit, model: model)
        if trace {
            for change in response.changes {
                print(
                    "TRACE   pull \(change.transaction) \(change.event) \(change.uid?.prefix(8) ?? "-") x\(change.fact?.mentionCount ?? 0)"
                )
            }
        }
        if roll() == 0 {
            if trace { print("TRACE   pull answer lost") }
            throw Cut()
        }
        return response
    }

    func snapshot(model: EmbeddingModelIdentity?) async throws -> SyncSnapshotResponse {
        try await base.snapshot(model: model)
    }
}

/// A small seeded generator (SplitMix64), the same sequence on every platform.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
