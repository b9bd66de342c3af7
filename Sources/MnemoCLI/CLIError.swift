import Mnemo

/// A command-line failure that is not a usage mistake: printed as one line, without the usage.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension CLIError {
    /// `error` as the command line reports it: a model mismatch, whose fix in the library is a
    /// call (`acceptsOtherEmbedder`, `reembed()`), names the command that does it instead.
    static func explaining(_ error: any Error) -> any Error {
        switch error {
        case MnemoError.conflict(.embedderMismatch(let stored, let given)):
            CLIError(
                "the database's vectors were made with \(stored), not \(given); run `mnemo reembed` to rebuild them with the current model"
            )
        default:
            MnemoError.explaining(error)
        }
    }
}
