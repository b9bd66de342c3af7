/// How ``KnowledgeBase/ingest(data:options:)`` and its siblings read and store records.
public struct IngestOptions: Sendable {
    /// The input format, or `nil` to detect it from the first bytes (JSON Lines, or a whole JSON document of the `extracted` or `topics` shape).
    public var format: IngestFormat?
    /// All or nothing: when any record is rejected, nothing of the input is stored, and the input
    /// is written in one transaction. Strict ingest holds the input's records in memory until
    /// they are written; without it, memory stays bounded whatever the input's size.
    public var strict: Bool
    /// The namespace of records that name none, with ``NamespacePolicy/fromRecords``; the
    /// knowledge base's own when `nil`. With ``NamespacePolicy/pinned`` it must be `nil` or the
    /// knowledge base's own namespace.
    public var defaultNamespace: String?
    /// Whether a record's `namespace` field may send it to another namespace than the knowledge
    /// base's. Pinned by default: records often come from a model reading untrusted text.
    public var namespacePolicy: NamespacePolicy
    /// Records written per transaction (without ``strict``), or `nil` for the default: 5,000,
    /// or 500 when the knowledge base has an embedder. Each batch is committed whole or not at
    /// all, so a failure never leaves part of one visible. At least 1: an ingest with less
    /// throws ``MnemoError/invalidInput(field:reason:)`` before reading anything.
    ///
    /// Larger batches mean fewer commits and fewer hand-offs between the reading and the writing
    /// thread; past a few thousand records the gain is small. With an embedder, each fact is
    /// also compared with every earlier new fact of its batch, which grows with the square of
    /// the batch, while embedding 500 texts at once already keeps the encoder busy.
    public var batchSize: Int?
    /// Rejections kept in ``IngestReport/rejected``; the rest are only counted, so that a file of
    /// garbage does not fill memory.
    public var maximumReportedRejections: Int
    /// The longest JSONL line read, in bytes. Longer lines are skipped without being held in
    /// memory and rejected as ``IngestRejection/Code/recordTooLong``. The default, 1 MiB, is far
    /// above any valid record: content is at most ``Fact/maximumContentLength`` characters.
    public var maximumLineLength: Int
    /// The batch size used for a knowledge base with or without an embedder.
    func resolvedBatchSize(embedding: Bool) -> Int {
        batchSize ?? (embedding ? 500 : 5_000)
    }

    /// Called after each batch is written (and once at the end), from the ingesting task.
    public var progress: (@Sendable (IngestProgress) -> Void)?

    /// Creates options; the defaults detect the format, store good records and reject bad ones.
    public init(
        format: IngestFormat? = nil,
        strict: Bool = false,
        defaultNamespace: String? = nil,
        namespacePolicy: NamespacePolicy = .pinned,
        batchSize: Int? = nil,
        maximumReportedRejections: Int = 10_000,
        maximumLineLength: Int = 1 << 20,
        progress: (@Sendable (IngestProgress) -> Void)? = nil
    ) {
        self.format = format
        self.strict = strict
        self.defaultNamespace = defaultNamespace
        self.namespacePolicy = namespacePolicy
        self.batchSize = batchSize
        self.maximumReportedRejections = maximumReportedRejections
        self.maximumLineLength = maximumLineLength
        self.progress = progress
    }
}

/// How far an ingest has come, for a progress bar.
public struct IngestProgress: Hashable, Sendable {
    /// Bytes of the input read so far, when the input is bytes.
    public var bytesRead: Int
    /// The input's size in bytes, when known (a file or `Data`; not a pipe or a record sequence).
    public var totalBytes: Int?
    /// Records read so far, good and bad.
    public var recordsRead: Int
    /// The counts so far; its `rejected` list is left empty here.
    public var added: Int
    public var merged: Int
    public var unchanged: Int
    public var rejected: Int
    /// True for the last report, sent when the input is fully read and written.
    public var isFinished: Bool

    /// The fraction of the input read, from 0 to 1, when the size is known.
    public var fractionRead: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(bytesRead) / Double(totalBytes))
    }
}
