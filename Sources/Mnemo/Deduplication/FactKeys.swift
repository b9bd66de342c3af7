import Foundation

/// Each fact's normalized content key and its reading by the near-duplicate rule, computed once
/// for all the comparisons it takes part in: a context compares every candidate with every item
/// already in, and dedupe each fact with several neighbours. Reading the same content again for
/// each pair cost more than a context's search (on LoCoMo's chat turns, which are close to each
/// other, most of its time).
final class FactKeys {
    private var keys: [Int64: String] = [:]
    private var parsedFacts: [Int64: ParsedFact] = [:]

    func key(of fact: Fact) -> String {
        if let known = keys[fact.id] { return known }
        let key = TextNormalization.factKey(fact.content)
        keys[fact.id] = key
        return key
    }

    func parsed(_ fact: Fact) -> ParsedFact {
        if let known = parsedFacts[fact.id] { return known }
        let parsed = ParsedFact(fact.content)
        parsedFacts[fact.id] = parsed
        return parsed
    }
}
