/// The fields of a fact that an edit may change, by their vocabulary names: the one list that the
/// front doors' edits (``FactEdit``), sync's update operations (``SyncOperation/fields``) and
/// the replay of a synced state read. A field added here fails to compile until each of them
/// handles it (their switches are exhaustive).
package enum FactField: String, CaseIterable, Sendable {
    case content, type, importance, confidence, topic
    case isActive = "is_active"
    case expiresAt = "expires_at"
    case status, progress
    case targetDate = "target_date"
}
