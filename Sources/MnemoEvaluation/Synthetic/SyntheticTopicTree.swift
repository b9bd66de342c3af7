/// A seeded topic tree of about 40 topics, three levels deep, named with pseudo-words
/// ("Travo Shen/Kaibre/Drou Mis").
public struct SyntheticTopicTree: Sendable {
    /// Every topic's path, parents before children.
    public let paths: [String]
    /// The top-level topics' paths.
    public let roots: [String]

    /// Builds a tree with `rootCount` top-level topics, each with one to three children, about
    /// half of which have one or two children of their own.
    public init(rootCount: Int = 8, generator: inout SplitMix64) {
        var names = PseudoVocabulary(count: rootCount * 12, generator: &generator).words.makeIterator()
        func name() -> String {
            let word = names.next()!
            return word.prefix(1).uppercased() + word.dropFirst()
        }
        var paths: [String] = []
        var roots: [String] = []
        for _ in 0..<rootCount {
            // Two-word names at the top, as in "Health Fitness"; one word below.
            let root = "\(name()) \(name())"
            roots.append(root)
            paths.append(root)
            for _ in 0..<(1 + generator.below(3)) {
                let child = "\(root)/\(name())"
                paths.append(child)
                guard generator.below(2) == 0 else { continue }
                for _ in 0..<(1 + generator.below(2)) {
                    paths.append("\(child)/\(name())")
                }
            }
        }
        self.paths = paths
        self.roots = roots
    }
}
