import Mnemo

/// A fixed-size block of `Float`s aligned to a cache line, for weights and scratch activations.
///
/// Arrays would do for correctness, but the matrix kernels want raw pointers that stay valid for a
/// whole forward pass, without copy-on-write checks or exclusivity bookkeeping in the hot loops.
///
/// It is `@unchecked Sendable` because of how it is used, not because it locks: weight buffers are
/// written only while the model loads and are read-only afterwards, and scratch buffers belong to a
/// single ``SentenceEncoder/encode(_:)`` call, whose worker threads write disjoint ranges.
final class FloatBuffer: @unchecked Sendable {
    /// The first element; valid for ``count`` elements until the buffer is released.
    let pointer: UnsafeMutablePointer<Float>
    /// The number of elements.
    let count: Int

    /// Allocates `count` zeroed elements.
    init(count: Int) {
        self.count = count
        let raw = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1) * MemoryLayout<Float>.stride, alignment: 64)
        pointer = raw.bindMemory(to: Float.self, capacity: max(count, 1))
        pointer.initialize(repeating: 0, count: max(count, 1))
    }

    /// Allocates a copy of `values`.
    convenience init(_ values: [Float]) {
        self.init(count: values.count)
        values.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { pointer.update(from: base, count: values.count) }
        }
    }

    deinit {
        pointer.deinitialize(count: max(count, 1))
        UnsafeMutableRawPointer(pointer).deallocate()
    }
}

/// Raw pointers carried into the workers of a parallel loop (`LinearLayerKernel.parallel`).
///
/// Each worker writes a disjoint slice, and the call does not return before all workers finish, so
/// sharing the pointers is safe; the wrapper only states that to the compiler.
struct SharedPointer: @unchecked Sendable {
    let base: UnsafeMutablePointer<Float>
    init(_ base: UnsafeMutablePointer<Float>) { self.base = base }
}
