import Hummingbird

/// The per-request state of the server: Hummingbird's core storage and the authenticated user.
package struct MnemoRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The namespace the request's bearer token grants; `nil` when authentication is off.
    package var user: String?

    package init(source: Source) {
        self.coreContext = .init(source: source)
    }
}
