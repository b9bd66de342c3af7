/// What one ingest did: how many records were stored, recognised or rejected, and why.
public struct IngestReport: Hashable, Sendable, Codable {
    /// The format that was read.
    public var format: IngestFormat?
    /// Records read, good and bad (blank JSONL lines are not records).
    public var records = 0
    /// Records stored as new facts.
    public var added = 0
    /// Records merged into a stored near-duplicate fact.
    public var merged = 0
    /// Records that were exact duplicates of a stored fact (or of an earlier record of the same
    /// input): nothing new was stored, and that fact's mention count went up.
    public var unchanged = 0
    /// Records not stored, in input order. At most ``IngestOptions/maximumReportedRejections`` are
    /// kept; ``rejectedCount`` counts them all.
    public var rejected: [IngestRejection] = []
    /// The number of rejected records, including those beyond the kept list.
    public var rejectedCount = 0
    /// Whether anything was written. False with `strict` when any record was rejected.
    public var committed = true
    /// The ids of the stored facts deleted to make room for this input's new facts, in the
    /// order they were evicted (see ``QuotaPolicy/evictLeastValuable``); empty otherwise.
    /// Records refused for the quota are in ``rejected`` with
    /// ``IngestRejection/Code/quotaExceeded``.
    public var evicted: [Int64] = []

    /// Creates an empty report.
    package init(format: IngestFormat? = nil) {
        self.format = format
    }

    /// Records accepted: added, merged or unchanged.
    public var accepted: Int { added + merged + unchanged }

    /// Counts the outcome of one stored record.
    mutating func count(_ outcome: FactWriter.Outcome) {
        switch outcome {
        case .added: added += 1
        case .unchanged: unchanged += 1
        case .merged: merged += 1
        }
    }

    /// Counts a written batch: its outcomes, its evictions, and as rejections the records its
    /// quota refused, whose positions are `positions` (one per record of the batch).
    mutating func count(_ written: FactWriter.Written, positions: [RecordPosition], keepingAtMost limit: Int) {
        for (outcome, position) in zip(written.outcomes, positions) {
            if let outcome {
                count(outcome)
            } else {
                reject(position.quotaRejection(limit: written.limit ?? 0), keepingAtMost: limit)
            }
        }
        evicted += written.evicted.map(\.id)
    }

    mutating func reject(_ rejection: IngestRejection, keepingAtMost limit: Int) {
        rejectedCount += 1
        if rejected.count < limit { rejected.append(rejection) }
    }
}

extension IngestReport: CustomStringConvertible {
    /// `12 records: 9 added, 1 merged, 1 unchanged, 1 rejected`, and `(nothing stored)` when a
    /// strict ingest refused its input. Each rejection prints itself (``IngestRejection``).
    public var description: String {
        "\(TopicNode.count(records, "record")): \(added) added, \(merged) merged, \(unchanged) unchanged, "
            + "\(rejectedCount) rejected" + (evicted.isEmpty ? "" : ", \(evicted.count) evicted")
            + (committed ? "" : " (nothing stored)")
    }
}
