import Foundation

/// The absolute relevance of a search hit (``SearchHit/relevance``): the probability that the
/// fact answers the query, a logistic function of the evidence a search has, with coefficients
/// fitted on labelled query–fact pairs.
///
/// - ``meaning(similarity:)``: `σ(a + b·cosine)`, for semantic hits.
/// - ``words(share:)``: `σ(a + b·share)`, for text hits: `share` is the IDF-weighted share of
///   the query's words the fact holds, a word absent from the memory weighing as much as the
///   rarest word can (so a hit on the one known word of a question of unknown words scores low).
/// - ``combined(similarity:share:)``: `σ(a + b·cosine + c·share)`, for hybrid hits.
///
/// ## How the coefficients were fitted
///
/// `mnemo eval --beir DIR --relevance-pairs FILE` wrote every judged query's hits with their
/// cosine, word share and label (1 when one of the fact's sources is judged relevant) on three
/// sets: LoCoMo's dev conversations (759 questions, one fact per chat turn), BEIR SciFact (300
/// claims) and the fixtures (`Fixtures/queries.json` over `Fixtures/knowledge.jsonl`, 63
/// queries). Each model is a logistic regression on the first 30 hits of its own mode (semantic,
/// text, hybrid) of every query, every set weighing the same, fitted by Newton's method in
/// `Scripts/relevance-fit/fit.py`. Calibration error (ECE: the hit-weighted mean gap between
/// the share of relevant hits and the mean relevance over ten bins of relevance) and Brier
/// score on each set, with coefficients fitted on the two others (held out):
///
/// | model | LoCoMo ECE / Brier | SciFact ECE / Brier | fixtures ECE / Brier |
/// | --- | --- | --- | --- |
/// | meaning | 0.065 / 0.036 | 0.027 / 0.028 | 0.036 / 0.038 |
/// | words | 0.025 / 0.033 | 0.007 / 0.026 | 0.050 / 0.058 |
/// | combined | 0.035 / 0.032 | 0.022 / 0.025 | 0.025 / 0.026 |
///
/// Relevance is low for most hits: these sets judge one to three facts per query relevant, so
/// 3–4 % of the first 30 hits are (13 % of the fixtures' text hits). A relevance of 0.5 takes a
/// cosine of 0.83 alone, or in hybrid mode 0.56 with a fact holding every word of the query; a
/// hybrid hit sharing no word with the query at cosine 0.44 ("Prefers oat milk in coffee" for
/// "peanut allergy", 0.237 with the hand-set coefficients these replace) scores 0.008. The
/// threshold an app compares with is therefore lower than 0.5:
/// ``SearchHit/defaultRelevanceThreshold``.
///
/// The coefficients belong to all-MiniLM-L6-v2: another embedder's cosines sit on another scale.
public enum Relevance {
    /// The coefficients of ``meaning(similarity:)``: intercept, cosine.
    static let meaningCoefficients = (intercept: -7.645, cosine: 9.169)
    /// The coefficients of ``words(share:)``: intercept, share.
    static let wordCoefficients = (intercept: -6.521, share: 7.340)
    /// The coefficients of ``combined(similarity:share:)``: intercept, cosine, share.
    static let combinedCoefficients = (intercept: -7.019, cosine: 4.866, share: 4.277)

    /// The relevance of a hit known by its cosine similarity alone.
    public static func meaning(similarity: Double) -> Double {
        logistic(meaningCoefficients.intercept + meaningCoefficients.cosine * similarity)
    }

    /// The relevance of a hit known by its words alone.
    public static func words(share: Double) -> Double {
        logistic(wordCoefficients.intercept + wordCoefficients.share * clamped(share))
    }

    /// The relevance of a hit known by both.
    public static func combined(similarity: Double, share: Double) -> Double {
        logistic(
            combinedCoefficients.intercept + combinedCoefficients.cosine * similarity
                + combinedCoefficients.share * clamped(share))
    }

    private static func clamped(_ value: Double) -> Double { min(1, max(0, value)) }

    private static func logistic(_ x: Double) -> Double { 1 / (1 + exp(-x)) }
}
