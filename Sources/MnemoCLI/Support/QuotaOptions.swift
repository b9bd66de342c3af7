import ArgumentParser
import Mnemo

/// `--fact-limit` and `--fact-limit-policy`, shared by the commands that add facts.
struct QuotaOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The most facts a namespace may hold, active and inactive; at the limit, a record that would add a new fact is refused with quota_exceeded (repeats and merges still pass). No limit when left out.",
            valueName: "n"))
    var factLimit: Int?

    @Option(
        help: ArgumentHelp(
            "At --fact-limit: reject the new fact, or evict the least valuable stored one (inactive first, then lowest importance, fewest mentions, oldest) to make room.",
            valueName: "reject|evict"))
    var factLimitPolicy: QuotaPolicy = .reject

    func validate() throws {
        if let factLimit, factLimit < 0 { throw ValidationError("--fact-limit must be 0 or more") }
    }

    /// `knowledgeBase` with these options' limit, or as it is when no limit is given.
    func applied(to knowledgeBase: KnowledgeBase) throws -> KnowledgeBase {
        guard let factLimit else { return knowledgeBase }
        return try knowledgeBase.withFactLimit(factLimit, policy: factLimitPolicy)
    }
}

extension QuotaPolicy: ExpressibleByArgument {}
