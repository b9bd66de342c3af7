import Foundation
import Mnemo

/// A seeded, realistic synthetic knowledge base for benchmarks: facts with text and vectors, and
/// queries with text, a query vector and a filter.
///
/// - Text: each fact is 5 to 20 words from a Zipfian vocabulary of pseudo-words (rank 1 is in
///   about a tenth of the facts, most words in a handful), so the full-text index has the long
///   posting lists of common words and the short ones of rare words that real text has.
/// - Topics: a tree of about 40 topics up to three levels deep; topic sizes are skewed.
/// - Attributes: every type and importance, in realistic proportions, and 3 % inactive facts.
/// - Vectors: unit vectors from a mixture of Gaussian clusters (each topic leans on a few
///   clusters), so nearest neighbours sit at realistic cosines (about 0.5 within a cluster, 0
///   across) rather than all at the same distance, as uniform random vectors would.
/// - Queries: each targets a random stored fact. Its text is 1 to 3 of the fact's words that are
///   not among the 100 most frequent (users type content words, not "the"), with one more word
///   when that text was already used; its vector is the
///   fact's vector plus noise (cosine about 0.9); its filter cycles through realistic filters.
///
/// The same configuration always gives the same corpus, on every platform.
public struct SyntheticCorpus: Sendable {
    /// What to generate.
    public struct Configuration: Hashable, Sendable {
        public var facts: Int
        public var queries: Int
        public var dimension: Int
        public var seed: UInt64
        public var vocabularySize: Int
        public var clusters: Int

        public init(
            facts: Int, queries: Int = 200, dimension: Int = 384, seed: UInt64 = 42,
            vocabularySize: Int = 20_000, clusters: Int = 200
        ) {
            precondition(
                facts >= 0 && queries >= 0 && dimension > 0 && vocabularySize > 100 && clusters > 0,
                "invalid synthetic corpus configuration")
            self.facts = facts
            self.queries = queries
            self.dimension = dimension
            self.seed = seed
            self.vocabularySize = vocabularySize
            self.clusters = clusters
        }
    }

    /// A benchmark query.
    public struct Query: Sendable {
        /// One to three words.
        public var text: String
        /// A unit vector near the target fact's.
        public var vector: [Float]
        /// A realistic filter for the filtered runs.
        public var filter: FactFilter
        /// The index in ``facts`` of the fact the query was made from.
        public var target: Int
    }

    public let configuration: Configuration
    public let vocabulary: PseudoVocabulary
    public let topics: SyntheticTopicTree
    public let facts: [NewFact]
    /// The facts' unit vectors, `dimension` floats per fact, in ``facts`` order.
    public let vectors: [Float]
    public let queries: [Query]

    /// Ranks below this are function words, never used as query terms.
    static let queryRankFloor = 100

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        var root = SplitMix64(seed: configuration.seed)
        // Each part draws from its own stream, so changing one part leaves the others as they were.
        var wordStream = root.fork()
        var topicStream = root.fork()
        var factStream = root.fork()
        var vectorStream = root.fork()
        var queryStream = root.fork()

        let vocabulary = PseudoVocabulary(count: configuration.vocabularySize, generator: &wordStream)
        let topics = SyntheticTopicTree(generator: &topicStream)
        self.vocabulary = vocabulary
        self.topics = topics
        let words = ZipfDistribution(count: configuration.vocabularySize)
        let topicSizes = ZipfDistribution(count: topics.paths.count, exponent: 0.8)

        var facts: [NewFact] = []
        var factRanks: [[Int]] = []
        var factTopics: [Int] = []
        facts.reserveCapacity(configuration.facts)
        var seen = Set<String>()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        while facts.count < configuration.facts {
            let length = 5 + factStream.below(8) + factStream.below(9)
            let ranks = (0..<length).map { _ in words.sample(using: &factStream) }
            let text = ranks.map { vocabulary[$0] }.joined(separator: " ")
            // Exact duplicates would be folded together by the knowledge base: draw again.
            guard seen.insert(text).inserted else { continue }
            let topic = topicSizes.sample(using: &factStream)
            let index = facts.count
            facts.append(
                NewFact(
                    content: text.prefix(1).uppercased() + text.dropFirst() + ".",
                    topicPath: try! TopicPath(topics.paths[topic]),
                    type: Self.pick(Self.typeWeights, &factStream),
                    importance: Self.pick(Self.importanceWeights, &factStream),
                    confidence: 0.5 + 0.5 * factStream.uniform(),
                    sources: ["conversation-\(index / 20)"],
                    createdAt: start.addingTimeInterval(Double(index) * 60),
                    isActive: factStream.below(100) >= 3))
            factRanks.append(ranks)
            factTopics.append(topic)
        }
        let vectors = Self.clusteredVectors(topics: factTopics, configuration: configuration, generator: &vectorStream)

        var queries: [Query] = []
        let filters = Self.queryFilters(topics: topics)
        var usedTexts = Set<String>()
        for index in 0..<(facts.isEmpty ? 0 : configuration.queries) {
            let target = queryStream.below(facts.count)
            let contentRanks = Array(Set(factRanks[target].filter { $0 >= Self.queryRankFloor })).sorted()
            let termCount = [1, 1, 2, 2, 3][queryStream.below(5)]
            var terms: [Int] = []
            for _ in 0..<termCount {
                // Mostly the fact's own content words; a word from the wider vocabulary otherwise.
                var rank = 0
                if !contentRanks.isEmpty, queryStream.below(4) != 0 {
                    rank = contentRanks[queryStream.below(contentRanks.count)]
                } else {
                    while rank < Self.queryRankFloor { rank = words.sample(using: &queryStream) }
                }
                if !terms.contains(rank) { terms.append(rank) }
            }
            // Each query text maps to one query vector in the benchmark's embedder: a repeated
            // text gets one more word from the wider vocabulary until it is new.
            while usedTexts.contains(terms.map { vocabulary[$0] }.joined(separator: " ")) {
                var rank = 0
                while rank < Self.queryRankFloor || terms.contains(rank) { rank = words.sample(using: &queryStream) }
                terms.append(rank)
            }
            usedTexts.insert(terms.map { vocabulary[$0] }.joined(separator: " "))
            var vector = Array(vectors[target * configuration.dimension..<(target + 1) * configuration.dimension])
            for component in vector.indices {
                vector[component] += Float(0.5 * queryStream.gaussian() / Double(configuration.dimension).squareRoot())
            }
            Self.normalize(&vector)
            queries.append(
                Query(
                    text: terms.map { vocabulary[$0] }.joined(separator: " "), vector: vector,
                    filter: filters[index % filters.count], target: target))
        }
        self.facts = facts
        self.vectors = vectors
        self.queries = queries
    }

    /// The vector of fact `index`.
    public func vector(ofFact index: Int) -> ArraySlice<Float> {
        vectors[index * configuration.dimension..<(index + 1) * configuration.dimension]
    }

    /// An embedder that answers with the stored vectors: each fact's content maps to its vector
    /// and each query's text to its query vector, so loading and searching never wait on a model.
    public func embedder() -> PrecomputedEmbedder {
        var texts = facts.map(\.content)
        var all = vectors
        for query in queries {
            texts.append(query.text)
            all += query.vector
        }
        return PrecomputedEmbedder(
            identity: EmbeddingModelIdentity(name: "mnemo/synthetic-clusters", dimension: configuration.dimension),
            texts: texts, vectors: all)
    }

    // Proportions of a typical extracted memory: mostly plain facts, few goals.
    static let typeWeights: [(FactType, Int)] = [(.fact, 50), (.preference, 20), (.goal, 10), (.experience, 20)]
    static let importanceWeights: [(Importance, Int)] = [(.high, 15), (.medium, 40), (.low, 30), (.negligible, 15)]

    static func pick<Value>(_ weights: [(Value, Int)], _ generator: inout SplitMix64) -> Value {
        var draw = generator.below(weights.reduce(0) { $0 + $1.1 })
        for (value, weight) in weights {
            if draw < weight { return value }
            draw -= weight
        }
        return weights[weights.count - 1].0
    }

    /// The filters filtered runs cycle through: a type, a minimum importance, a topic subtree,
    /// and a combination, as an app asking "my high-importance preferences" would.
    static func queryFilters(topics: SyntheticTopicTree) -> [FactFilter] {
        [
            FactFilter(types: [.preference]),
            FactFilter(minimumImportance: .high),
            FactFilter(topicPath: try! TopicPath(topics.roots[0])),
            FactFilter(types: [.goal, .experience], minimumImportance: .medium),
        ]
    }

    /// Unit vectors: a cluster centre plus Gaussian noise of the same overall size (cosine about
    /// 0.5 to the centre's neighbours); 70 % of a topic's facts fall in one of its 5 home clusters.
    static func clusteredVectors(
        topics: [Int], configuration: Configuration,
        generator: inout SplitMix64
    ) -> [Float] {
        let dimension = configuration.dimension
        let noise = 1 / Double(dimension).squareRoot()
        var centres = [Float](repeating: 0, count: configuration.clusters * dimension)
        for cluster in 0..<configuration.clusters {
            var centre = (0..<dimension).map { _ in Float(generator.gaussian()) }
            normalize(&centre)
            centres.replaceSubrange(cluster * dimension..<(cluster + 1) * dimension, with: centre)
        }
        var vectors = [Float](repeating: 0, count: topics.count * dimension)
        var vector = [Float](repeating: 0, count: dimension)
        for (index, topic) in topics.enumerated() {
            let cluster =
                generator.below(10) < 7
                ? (topic * 5 + generator.below(5)) % configuration.clusters
                : generator.below(configuration.clusters)
            for component in 0..<dimension {
                vector[component] = centres[cluster * dimension + component] + Float(noise * generator.gaussian())
            }
            normalize(&vector)
            vectors.replaceSubrange(index * dimension..<(index + 1) * dimension, with: vector)
        }
        return vectors
    }

    static func normalize(_ vector: inout [Float]) {
        let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        guard norm > 0 else { return }
        for index in vector.indices { vector[index] /= norm }
    }
}
