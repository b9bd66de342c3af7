import Foundation

/// What happened to one record written by ``KnowledgeBase/storeAllOrNothing(_:)``.
package struct StoredRecord: Sendable {
    /// Whether the record became a new fact or landed on a stored one.
    package enum Disposition: String, Sendable, Codable {
        case added, merged, unchanged
    }

    /// The stored fact: the new one, or the one the record was merged into or repeated.
    package var fact: Fact
    package var disposition: Disposition
}

/// The result of an all-or-nothing store: every record stored, or why some could not be.
package enum StoreOutcome: Sendable {
    /// Every record stored; `evicted` are the facts deleted to make room for the new ones
    /// (see ``QuotaPolicy/evictLeastValuable``).
    case stored([StoredRecord], evicted: [Fact])
    /// Nothing was stored because of these records: all invalid ones (as ingest rejects them),
    /// or, when every record is valid, those the namespace's fact limit refuses
    /// (``IngestRejection/Code/quotaExceeded``).
    case rejected([IngestRejection])
}

extension KnowledgeBase {
    /// Checks records with the ingest mapping rules and, when all pass, stores them in one
    /// transaction (deduplicated and merged as ingest does), returning each record's fact.
    ///
    /// The servers use this where a client needs the facts back: `ingest` only counts them.
    /// Rejections give the record's position from 1 and no line.
    package func storeAllOrNothing(_ records: [IngestRecord]) async throws -> StoreOutcome {
        let items = records.enumerated().map {
            ReadItem.record($0.element, RecordPosition(record: $0.offset + 1, line: nil))
        }
        return try await storeAllOrNothing(items, completing: { _ in })
    }

    /// Reads a whole-document input (`extracted` or `topics`) and stores its records all or
    /// nothing, as ``storeAllOrNothing(_:)``. Rejections give the line where a record starts.
    /// - Parameter completing: called on each readable record before it is checked, to add what
    ///   the caller knows (a source) or to refuse it by throwing.
    /// - Throws: ``MnemoError/unreadableInput(_:)`` when `data` is not shaped like `format`,
    ///   whatever `completing` throws, or a database failure (nothing is stored).
    package func storeAllOrNothing(
        data: Data, format: IngestFormat, completing: (inout IngestRecord) throws -> Void
    ) async throws -> StoreOutcome {
        guard format.isWholeDocument else {
            throw MnemoError.invalidInput(
                field: "format",
                reason: "storeAllOrNothing reads the extracted and topics formats, not \(format.rawValue)")
        }
        var reader = try DocumentReader(data: data, format: format)
        var items: [ReadItem] = []
        while let item = reader.next() { items.append(item) }
        return try await storeAllOrNothing(items, completing: completing)
    }

    private func storeAllOrNothing(
        _ items: [ReadItem], completing: (inout IngestRecord) throws -> Void
    ) async throws -> StoreOutcome {
        var rejected: [IngestRejection] = []
        var pending: [PendingFact] = []
        var positions: [RecordPosition] = []
        var topics = TopicPathCache()
        for item in items {
            switch item {
            case .rejected(let rejection):
                rejected.append(rejection)
            case .record(var record, let position, let nodeTopic):
                try completing(&record)
                do {
                    pending.append(
                        try record.pending(defaultNamespace: namespace, nodeTopic: nodeTopic, topics: &topics))
                    positions.append(position)
                } catch {
                    rejected.append(position.rejection(error))
                }
            }
        }
        guard rejected.isEmpty else { return .rejected(rejected) }
        guard !pending.isEmpty else { return .stored([], evicted: []) }
        let written: FactWriter.Written
        do {
            written = try await storeBatch(embedBatch(pending))
        } catch let refusal as FactWriter.QuotaRefusal {
            return .rejected(refusal.indices.map { positions[$0].quotaRejection(limit: refusal.limit) })
        }
        return .stored(
            written.outcomes.map { outcome in
                switch outcome {
                case .added(let fact)?: StoredRecord(fact: fact, disposition: .added)
                case .merged(let fact)?: StoredRecord(fact: fact, disposition: .merged)
                case .unchanged(let fact)?: StoredRecord(fact: fact, disposition: .unchanged)
                case nil: preconditionFailure("an all-or-nothing store throws when its quota refuses a fact")
                }
            }, evicted: written.evicted)
    }
}
