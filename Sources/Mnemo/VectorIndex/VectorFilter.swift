/// A ``FactFilter`` compiled for the vector scan: bit masks tested per row, so filters apply
/// during the scan and a search returns k results whenever k facts match.
struct VectorFilter: Sendable {
    /// The namespace whose rows the scan reads.
    let namespaceCode: Int32
    /// Bit `n` set when the type with index `n` passes.
    let typeMask: UInt16
    /// Bit `rank` set when that importance passes.
    let importanceMask: UInt8
    let activity: FactFilter.Activity
    /// The topic subtree's ids, or `nil` for every topic.
    let topicIDs: Set<Int64>?
    /// The half-open range of statement times that pass, in seconds since 1970, or `nil` for
    /// any time (see ``FactFilter/since`` and ``FactFilter/until``).
    let timeRange: (lower: Double, upper: Double)?

    init(_ filter: FactFilter, namespaceCode: Int32, topicIDs: Set<Int64>?) {
        self.namespaceCode = namespaceCode
        var typeMask: UInt16 = 0
        for (index, type) in FactType.allCases.enumerated() where filter.types?.contains(type) ?? true {
            typeMask |= 1 << index
        }
        self.typeMask = typeMask
        var importanceMask: UInt8 = 0
        for importance in Importance.allCases
        where (filter.importances?.contains(importance) ?? true)
            && importance >= (filter.minimumImportance ?? .negligible)
        {
            importanceMask |= 1 << importance.rank
        }
        self.importanceMask = importanceMask
        self.activity = filter.activity
        self.topicIDs = topicIDs
        self.timeRange =
            filter.hasTimeRange
            ? (filter.since?.timeIntervalSince1970 ?? -.infinity, filter.until?.timeIntervalSince1970 ?? .infinity)
            : nil
    }

    /// Whether a row with this flag and topic passes. The namespace is not tested here: the scan
    /// reads the namespace's rows only (``VectorSnapshot/rows(ofNamespace:)``). The topic is read
    /// only when a subtree is asked for, since each read of a row's attributes is likely a cache miss
    /// while the scan streams its codes.
    /// The statement time is read, like the topic, only when a range is asked for.
    @inline(__always)
    func accepts(flag: UInt8, topicID: @autoclosure () -> Int64, createdTime: @autoclosure () -> Double) -> Bool {
        guard typeMask & (1 << UInt16(flag & 0x0F)) != 0,
            importanceMask & (1 << ((flag >> 4) & 0x03)) != 0
        else { return false }
        switch activity {
        case .activeOnly: if flag & 0x80 == 0 { return false }
        case .inactiveOnly: if flag & 0x80 != 0 { return false }
        case .all: break
        }
        if let timeRange {
            let time = createdTime()
            guard time >= timeRange.lower, time < timeRange.upper else { return false }
        }
        guard let topicIDs else { return true }
        return topicIDs.contains(topicID())
    }
}
