/// Whether `mnemo serve` serves the memory page (`/ui`), and whether the page may change memory.
package enum PageMode: String, CaseIterable, Sendable {
    /// Views and actions.
    case on
    /// No `/ui` routes at all.
    case off
    /// Views only: no action buttons, and a POST (other than signing in or out) is 403.
    case readOnly = "read-only"

    /// Whether the page shows actions and accepts them.
    var allowsChanges: Bool { self == .on }
}
