import Foundation

extension TopicMergeReport: CustomStringConvertible {
    /// `merged Fitness, Sport into Health: 4 facts moved, 1 duplicate fact merged`, with what
    /// was already merged; `would merge …` for a dry run.
    public var description: String {
        var parts: [String] = []
        if !mergedTopics.isEmpty {
            parts.append(
                "\(dryRun ? "would merge" : "merged") \(mergedTopics.joined(separator: ", ")) into \(target): "
                    + "\(TopicNode.count(movedFacts, "fact")) moved, \(TopicNode.count(mergedFacts, "duplicate fact")) merged"
            )
        }
        if !alreadyMerged.isEmpty {
            parts.append("\(alreadyMerged.joined(separator: ", ")) already merged into \(target)")
        }
        return parts.isEmpty ? "nothing to merge into \(target)" : parts.joined(separator: "; ")
    }
}

extension DuplicateCluster: CustomStringConvertible {
    /// `#3 "Runs every day" absorbs #5 "Runs daily", #9 "Goes running every day"`.
    public var description: String {
        "#\(survivor.id) \"\(survivor.content)\" absorbs "
            + duplicates.map { "#\($0.id) \"\($0.content)\"" }.joined(separator: ", ")
    }
}

extension TopicVariantGroup: CustomStringConvertible {
    /// `Health and Fitness, health & fitness → Health & Fitness`.
    public var description: String { "\(variants.joined(separator: ", ")) → \(target)" }
}

extension DedupeReport: CustomStringConvertible {
    /// `1 topic group and 3 duplicate facts merged (1 where merged topics met)`, then one line
    /// per topic group and per cluster; `would merge` for a dry run.
    public var description: String {
        let verb = dryRun ? "would be merged" : "merged"
        let byTopics = topicMergedFacts == 0 ? "" : " (\(topicMergedFacts) where merged topics met)"
        let summary =
            "\(TopicNode.count(topicGroups.count, "topic group")) and "
            + "\(TopicNode.count(mergedFacts, "duplicate fact")) \(verb)\(byTopics)"
        return ([summary] + topicGroups.map { "  topics: \($0)" } + allClusters.map { "  facts: \($0)" })
            .joined(separator: "\n")
    }
}

extension CheckReport: CustomStringConvertible {
    /// `clean (9 checks)`, or the problems left, one per line, and the repairs made.
    public var description: String {
        let summary =
            isClean
            ? "clean (\(TopicNode.count(checked.count, "check")))"
            : "\(TopicNode.count(problems.count, "problem")) (\(TopicNode.count(checked.count, "check")))"
        return ([summary] + problems.map { "  \($0)" } + repairs.map { "  repaired: \($0)" }).joined(separator: "\n")
    }
}
