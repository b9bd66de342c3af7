import Testing

@testable import Mnemo

/// The fusions on hand-made candidate lists: no database, no model.
@Suite("Hybrid fusion")
struct HybridFusionTests {
    static let fusion = HybridFusion.standard

    static func semantic(_ similarity: Double, rank: Int) -> HybridCandidate {
        HybridCandidate(similarity: similarity, semanticRank: rank)
    }

    static func both(_ similarity: Double, semanticRank: Int?, textRank: Int, bm25: Double) -> HybridCandidate {
        HybridCandidate(similarity: similarity, semanticRank: semanticRank, textRank: textRank, textScore: bm25)
    }

    @Test func equalScoresRankByID() {
        let fused = Self.fusion.fuse([
            7: Self.semantic(0.5, rank: 1), 3: Self.semantic(0.5, rank: 2), 5: Self.semantic(0.4, rank: 3),
        ])
        #expect(fused.map(\.id) == [3, 7, 5])
        #expect(fused[0].score == fused[1].score)
    }

    @Test func anEmptyTextListLeavesTheSemanticOrder() {
        let fused = Self.fusion.fuse(
            [1: Self.semantic(0.2, rank: 3), 2: Self.semantic(0.6, rank: 1), 3: Self.semantic(0.4, rank: 2)],
            wordCoverage: 1)
        #expect(fused.map(\.id) == [2, 3, 1])
        // Scaled by the best similarity: the best hit scores 1 − the text weight it could not use.
        #expect(abs(fused[0].score - 0.65) < 1e-12)
        #expect(abs(fused[2].score - 0.65 / 3) < 1e-12)
    }

    @Test func anEmptyCandidateSetFusesToNothing() {
        #expect(Self.fusion.fuse([:]).isEmpty)
        #expect(HybridFusion.reciprocalRank(k: 60).fuse([:]).isEmpty)
    }

    /// Facts without vectors (similarity 0) that matched the words: the text list alone orders them.
    @Test func aTextListAloneOrdersByBM25() {
        let fused = Self.fusion.fuse([
            1: Self.both(0, semanticRank: nil, textRank: 2, bm25: 4),
            2: Self.both(0, semanticRank: nil, textRank: 1, bm25: 9),
            3: Self.both(0, semanticRank: nil, textRank: 3, bm25: 1),
        ])
        #expect(fused.map(\.id) == [2, 1, 3])
        #expect(abs(fused[0].score - 0.35) < 1e-12)
    }

    /// The point of normalising per query: BM25 on another scale (abstracts score three times
    /// what chat turns do) gives the same order.
    @Test func theOrderDoesNotDependOnTheBM25Scale() {
        let candidates: [Int64: HybridCandidate] = [
            1: Self.both(0.62, semanticRank: 1, textRank: 3, bm25: 2.0),
            2: Self.both(0.48, semanticRank: 2, textRank: 1, bm25: 11.0),
            3: Self.both(0.45, semanticRank: 3, textRank: 2, bm25: 7.5),
            4: Self.semantic(0.40, rank: 4),
        ]
        let scaled = candidates.mapValues { candidate in
            var candidate = candidate
            candidate.textScore = candidate.textScore.map { $0 * 3.7 }
            return candidate
        }
        #expect(Self.fusion.fuse(candidates).map(\.id) == Self.fusion.fuse(scaled).map(\.id))
        // The old constant-saturation fusion changes its order with the scale.
        let saturated = HybridFusion.weightedScore(textWeight: 0.6, saturation: 32)
        #expect(saturated.fuse(candidates).map(\.id) != saturated.fuse(scaled).map(\.id))
    }

    /// A BM25 relevance below zero (FTS5 floors IDF, so a term in most rows can score so) adds
    /// nothing and takes nothing away.
    @Test func negativeBM25CountsAsNoMatch() {
        let fused = Self.fusion.fuse([
            1: Self.both(0.5, semanticRank: 1, textRank: 1, bm25: -0.3),
            2: Self.semantic(0.5, rank: 2),
        ])
        #expect(fused.map(\.id) == [1, 2])
        #expect(fused[0].score == fused[1].score)
        #expect(fused.allSatisfy { $0.score.isFinite })
    }

    /// When no candidate is similar at all (best cosine ≤ 0), similarities are not divided: the
    /// order stays the cosine order instead of flipping.
    @Test func nonPositiveSimilaritiesKeepTheirOrder() {
        let fused = Self.fusion.fuse([1: Self.semantic(-0.30, rank: 2), 2: Self.semantic(-0.05, rank: 1)])
        #expect(fused.map(\.id) == [2, 1])
    }

    /// The text list weighs as much as the share of the query's words the memory has: none when
    /// no word occurs, the full weight when all do.
    @Test func wordCoverageScalesTheTextWeight() {
        let candidates: [Int64: HybridCandidate] = [
            1: Self.semantic(0.60, rank: 1),
            2: Self.both(0.45, semanticRank: 2, textRank: 1, bm25: 6),
        ]
        #expect(Self.fusion.fuse(candidates, wordCoverage: 1).map(\.id) == [2, 1])
        #expect(Self.fusion.fuse(candidates, wordCoverage: 0).map(\.id) == [1, 2])
        let none = Self.fusion.fuse(candidates, wordCoverage: 0)
        #expect(abs(none[0].score - 1) < 1e-12 && abs(none[1].score - 0.75) < 1e-12)
    }

    /// A text hit's BM25 counts in proportion to the share of the query's words it holds,
    /// relative to the hit holding most: the best BM25 earned on one word of two ranks below a
    /// weaker BM25 earned on both.
    @Test func wordShareWeighsEachTextHit() {
        var oneWord = Self.both(0.50, semanticRank: 1, textRank: 1, bm25: 8)
        oneWord.wordShare = 0.3
        var bothWords = Self.both(0.50, semanticRank: 2, textRank: 2, bm25: 6)
        bothWords.wordShare = 0.9
        let fused = Self.fusion.fuse([1: oneWord, 2: bothWords], wordCoverage: 1)
        #expect(fused.map(\.id) == [2, 1])
        // (1 − 0.35) × 1 + 0.35 × 6/8 × 1, and (1 − 0.35) × 1 + 0.35 × 1 × 0.3/0.9.
        #expect(abs(fused[0].score - (0.65 + 0.35 * 0.75)) < 1e-12)
        #expect(abs(fused[1].score - (0.65 + 0.35 / 3)) < 1e-12)
        // Without shares (unknown), the hits count as holding the most: the BM25 order decides.
        oneWord.wordShare = nil
        bothWords.wordShare = nil
        #expect(Self.fusion.fuse([1: oneWord, 2: bothWords], wordCoverage: 1).map(\.id) == [1, 2])
    }

    @Test func reciprocalRankIgnoresScores() {
        let fused = HybridFusion.reciprocalRank(k: 60).fuse([
            1: Self.both(0.9, semanticRank: 1, textRank: 2, bm25: 1),
            2: Self.both(0.1, semanticRank: 2, textRank: 1, bm25: 100),
        ])
        #expect(fused.map(\.id) == [1, 2])
        #expect(fused[0].score == fused[1].score)
    }
}
