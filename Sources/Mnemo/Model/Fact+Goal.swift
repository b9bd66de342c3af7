import Foundation

extension Fact {
    /// Whether the fact is a goal that is no longer an aim: completed or abandoned.
    public var isSettledGoal: Bool { status == .completed || status == .abandoned }
}

/// The checks on a goal's fields that every way in shares (a new fact, an update, an ingested
/// record): only a goal has them, and a progress is a share.
enum GoalFields {
    /// Fails when a fact of `type` carries goal fields, or `progress` is outside 0…1.
    static func validate(type: FactType, status: GoalStatus?, progress: Double?, targetDate: Date?, completedAt: Date?)
        throws(MnemoError)
    {
        if type != .goal {
            let given = [
                status.map { _ in "status" }, progress.map { _ in "progress" }, targetDate.map { _ in "target_date" },
                completedAt.map { _ in "completed_at" },
            ].compactMap { $0 }
            if let field = given.first {
                throw MnemoError.invalidInput(
                    field: field, reason: "only a goal has a \(field); this fact is a \(type.rawValue)")
            }
        }
        if let progress { try validate(progress: progress) }
    }

    static func validate(progress: Double) throws(MnemoError) {
        guard progress.isFinite, (0...1).contains(progress) else {
            throw MnemoError.invalidInput(
                field: "progress", reason: "progress must be between 0 and 1, not \(progress)")
        }
    }
}
