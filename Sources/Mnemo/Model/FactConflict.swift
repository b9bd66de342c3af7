import Foundation

/// Two stored facts that are close in meaning but differ in something that carries identity: a
/// value, a name, negation, the direction of a preference, who does what to whom.
///
/// Mnemo keeps both rather than merging one away, because the newer one often replaces the
/// older ("I prefer hiking to cycling", months later "These days I'd pick cycling over hiking").
/// An app can ask its user which one holds and deactivate or delete the stale one, which clears
/// the conflict.
public struct FactConflict: Identifiable, Hashable, Sendable, Codable {
    public var id: Int64
    /// The fact stated first (by ``Fact/createdAt``; the lower id when both were stated at once).
    public var older: Fact
    /// The fact stated later, which conflicts with ``older`` and likely replaces it.
    public var newer: Fact
    /// What tells them apart, as the rule saw it: "different values", "reversed preference", ….
    public var reason: String
    /// Their cosine similarity.
    public var similarity: Double
    /// When the conflict was found.
    public var detectedAt: Date
}
