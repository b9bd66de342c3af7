/// Where a goal stands (``Fact/status``): Lume's goal states, and what a history of a goal reads.
public enum GoalStatus: String, CaseIterable, Codable, Sendable, Hashable {
    /// Being pursued: the only status a context presents as a current aim.
    case active
    /// Set aside for now.
    case paused
    /// Reached; ``Fact/completedAt`` says when.
    case completed
    /// Given up.
    case abandoned
}
