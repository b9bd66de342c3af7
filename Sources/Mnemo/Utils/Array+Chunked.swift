extension Array {
    /// The array cut into consecutive slices of `size` elements (the last may be shorter).
    func chunked(into size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
