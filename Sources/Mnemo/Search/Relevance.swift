import Foundation

/// The absolute relevance of a search hit (``SearchHit/relevance``): a logistic function of the
/// evidence a search has, with coefficients fitted on labelled query–fact pairs.
///
/// - ``meaning(similarity:)``: `σ(a + b·cosine)`, for semantic hits.
/// - ``words(share:)``: `σ(a + b·share)`, for text hits: `share` is the IDF-weighted share of
///   the query's words the fact holds, a word absent from the memory weighing as much as the
///   rarest word can (so a hit on the one known word of a question of unknown words scores low).
/// - ``combined(similarity:share:)``: `σ(a + b·cosine + c·share)`, for hybrid hits.
///
/// The coefficients put the midpoint (relevance 0.5) at a cosine of about 0.42 with
/// all-MiniLM-L6-v2, where unrelated facts rarely reach and paraphrases rarely fall below
/// ("Prefers oat milk in coffee" scores 0.24 for "peanut allergy"), and at two thirds of a
/// question's word weight in text mode. They belong to that model: another embedder's cosines
/// sit on another scale.
public enum Relevance {
    /// The coefficients of ``meaning(similarity:)``: intercept, cosine.
    static let meaningCoefficients = (intercept: -5.0, cosine: 12.0)
    /// The coefficients of ``words(share:)``: intercept, share.
    static let wordCoefficients = (intercept: -4.0, share: 6.0)
    /// The coefficients of ``combined(similarity:share:)``: intercept, cosine, share.
    static let combinedCoefficients = (intercept: -6.0, cosine: 11.0, share: 3.0)

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
