/// The cosine similarity of two vectors (not assumed to be unit vectors).
package func cosine(_ a: [Float], _ b: [Float]) -> Float {
    var dot: Float = 0
    var na: Float = 0
    var nb: Float = 0
    for i in a.indices {
        dot += a[i] * b[i]
        na += a[i] * a[i]
        nb += b[i] * b[i]
    }
    return dot / (na.squareRoot() * nb.squareRoot())
}
