/// A command-line failure that is not a usage mistake: printed as one line, without the usage.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
