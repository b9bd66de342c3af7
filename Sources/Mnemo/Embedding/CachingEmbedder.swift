import Foundation

/// An embedder that remembers the vectors of recent single texts, so a repeated query is not
/// encoded again.
///
/// Queries arrive one text at a time and repeat (a chat app asks the same question, a user
/// pages through results); encoding one runs the whole model (<doc:Performance>, "Encoder",
/// gives what that costs), where a remembered vector is a lookup. Single-text calls are answered
/// from a least-recently-used cache of `capacity` vectors; batches (ingest, re-embedding) pass
/// straight through and are not cached, so they never evict queries.
///
/// With `import MnemoEncoder` (for `SentenceEncoder` and `ModelFolder`):
///
/// ```swift
/// let encoder = try SentenceEncoder(modelDirectory: ModelFolder.modelDirectory)
/// let kb = try KnowledgeBase(path: "memory.sqlite", embedder: CachingEmbedder(encoder, capacity: 1_000))
/// ```
public final class CachingEmbedder: Embedder, @unchecked Sendable {
    /// The embedder that computes vectors the cache does not hold.
    public let base: any Embedder
    /// The most vectors kept.
    public let capacity: Int
    private let lock = NSLock()
    private var cache: LeastRecentlyUsed<String, [Float]>
    private var counts = (hits: 0, misses: 0)

    /// Wraps `base`, keeping at most `capacity` vectors (0, or less, turns the cache off).
    public init(_ base: any Embedder, capacity: Int = 1_024) {
        self.base = base
        self.capacity = max(0, capacity)
        self.cache = LeastRecentlyUsed(capacity: max(0, capacity))
    }

    public var identity: EmbeddingModelIdentity { base.identity }

    /// Cache hits and misses of single-text calls so far.
    public var statistics: (hits: Int, misses: Int) {
        lock.withLock { counts }
    }

    public func embed(_ texts: [String]) async throws -> [[Float]] {
        guard texts.count == 1, capacity > 0 else { return try await base.embed(texts) }
        let text = texts[0]
        if let vector = lock.withLock({ () -> [Float]? in
            let vector = cache.value(for: text)
            if vector == nil { counts.misses += 1 } else { counts.hits += 1 }
            return vector
        }) {
            return [vector]
        }
        let vectors = try await base.embed(texts)
        if let vector = vectors.first {
            lock.withLock { cache.insert(vector, for: text) }
        }
        return vectors
    }
}

/// A fixed-capacity map that forgets its least recently used entry when full: a dictionary of
/// slots linked in use order, so every operation is O(1).
struct LeastRecentlyUsed<Key: Hashable, Value> {
    private struct Slot {
        var key: Key
        var value: Value
        var newer: Int?
        var older: Int?
    }

    let capacity: Int
    private var slots: [Slot] = []
    private var index: [Key: Int] = [:]
    private var newest: Int?
    private var oldest: Int?

    init(capacity: Int) {
        self.capacity = capacity
    }

    var count: Int { index.count }

    /// The value for `key`, which becomes the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let slot = index[key] else { return nil }
        moveToFront(slot)
        return slots[slot].value
    }

    /// Stores `value`, evicting the least recently used entry when full.
    mutating func insert(_ value: Value, for key: Key) {
        guard capacity > 0 else { return }
        if let slot = index[key] {
            slots[slot].value = value
            moveToFront(slot)
            return
        }
        let slot: Int
        if slots.count < capacity {
            slot = slots.count
            slots.append(Slot(key: key, value: value))
        } else {
            slot = oldest!
            unlink(slot)
            index[slots[slot].key] = nil
            slots[slot] = Slot(key: key, value: value)
        }
        index[key] = slot
        linkAtFront(slot)
    }

    private mutating func moveToFront(_ slot: Int) {
        guard newest != slot else { return }
        unlink(slot)
        linkAtFront(slot)
    }

    private mutating func unlink(_ slot: Int) {
        let (newer, older) = (slots[slot].newer, slots[slot].older)
        if let newer { slots[newer].older = older } else { newest = older }
        if let older { slots[older].newer = newer } else { oldest = newer }
        slots[slot].newer = nil
        slots[slot].older = nil
    }

    private mutating func linkAtFront(_ slot: Int) {
        slots[slot].older = newest
        if let newest { slots[newest].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }
}
