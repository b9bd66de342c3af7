import Mnemo

extension ReplSession {
    /// `:merge A[, B…] into C`: merges the topics for real (as `mnemo merge A B --into C`).
    func merge(_ argument: String) async throws {
        let (sources, target) = try Self.mergeArguments(argument)
        let report = try await kb.mergeTopics(sources.map { try TopicPath($0) }, into: TopicPath(target))
        try await refreshTopicPaths()
        if json { return try Output.json(report) }
        print(
            "Merged \(report.mergedTopics.joined(separator: ", ")) into \(report.target): \(report.movedFacts) facts moved, \(report.mergedFacts) duplicate facts merged."
        )
    }

    /// `:dedupe`: what `mnemo dedupe` would merge, without merging.
    func dedupe() async throws {
        let report = try await kb.dedupe(dryRun: true)
        if json { return try Output.json(report) }
        for group in report.topicGroups {
            print("topics: \(group.variants.joined(separator: ", ")) → \(group.target)")
        }
        for cluster in report.factClusters {
            print("#\(cluster.survivor.id) \(cluster.survivor.content)")
            for duplicate in cluster.duplicates { print(style.dim("   ← #\(duplicate.id) \(duplicate.content)")) }
        }
        print(
            "\(report.topicGroups.count) topic groups and \(report.mergedFacts) duplicate facts would merge (dry run: nothing changed; `mnemo dedupe` merges them)."
        )
        if kb.embedder == nil {
            print(style.dim("Duplicate facts are found by meaning: open the REPL without --mode text to see them."))
        }
    }

    /// Splits `A, B into C` (paths may be quoted, and hold spaces) at its last `into`.
    static func mergeArguments(_ argument: String) throws -> (sources: [String], target: String) {
        let usage = CLIError(
            "usage: :merge SOURCE[, SOURCE…] into TARGET, e.g. :merge Health and Fitness into Health & Fitness")
        let tokens = InlineQuery.tokens(in: argument)
        guard let into = tokens.lastIndex(where: { $0.lowercased() == "into" }) else { throw usage }
        let target = InlineQuery.unquoted(tokens[(into + 1)...].joined(separator: " ")[...])
        var sources: [String] = []
        var current = ""
        var quoted = false
        for character in tokens[..<into].joined(separator: " ") {
            if character == "\"" { quoted.toggle() }
            if character == "," && !quoted {
                sources.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        sources.append(current)
        sources = sources.map { InlineQuery.unquoted($0.trimmingCharacters(in: .whitespaces)[...]) }
        guard !target.isEmpty, !sources.contains(where: \.isEmpty) else { throw usage }
        return (sources, target)
    }
}
