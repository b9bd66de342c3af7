import ArgumentParser
import Mnemo

/// `--since` and `--until`: the dates a fact was stated that a search or a context keeps, shared
/// by the commands that filter by them.
struct StatedTimeOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp("Only facts stated at or after this: \(FilterField.since.valueHelp).", valueName: "when"))
    var since: String?

    @Option(
        help: ArgumentHelp(
            "Only facts stated before this (a day, month or year given is included whole).", valueName: "when"))
    var until: String?

    /// Sets the two filters of `parameters`, with the vocabulary's message for a wrong value.
    func apply(to parameters: inout SearchParameters) throws(FilterValueError) {
        try parameters.set(.since, to: since.map { [$0] } ?? [])
        try parameters.set(.until, to: until.map { [$0] } ?? [])
    }
}
