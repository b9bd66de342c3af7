import Dispatch

/// Streaming read bandwidth of main memory: the speed limit of a brute-force vector scan.
///
/// A scan of n vectors of d floats must read 4·n·d bytes; at the measured bandwidth that takes
/// at least `bytes / bandwidth` seconds, however fast the arithmetic. `mnemo bench` prints this
/// lower bound beside the scan's latency to show how close the scan gets.
public enum MemoryBandwidth {
    /// One measurement.
    public struct Measurement: Hashable, Sendable {
        /// The size of the buffer read on each pass.
        public var bytes: Int
        /// The threads that read it, each a contiguous share.
        public var threads: Int
        /// The fastest pass.
        public var bestPass: Duration
        /// A sum of everything read, so the reads cannot be optimised away.
        public var checksum: Float

        /// Bytes per second of the fastest pass, in units of 10⁹.
        public var gigabytesPerSecond: Double { Double(bytes) / bestPass.seconds / 1e9 }

        /// The time to stream `bytes` at this bandwidth.
        public func lowerBound(forReading bytes: Int) -> Duration {
            .seconds(Double(bytes) / (gigabytesPerSecond * 1e9))
        }
    }

    /// Reads a `bytes`-sized buffer `passes` times with `threads` threads and keeps the fastest
    /// pass. The buffer is written first: untouched pages would all map to the kernel's shared
    /// zero page and be read from cache.
    public static func measure(bytes: Int = 256 << 20, threads: Int = 2, passes: Int = 5) -> Measurement {
        let lanes = 64 // floats read per loop iteration, in four 16-wide accumulators
        let floats = bytes / 4 / lanes / threads * lanes * threads
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: floats)
        defer { buffer.deallocate() }
        buffer.initialize(repeating: 1, count: floats)
        let share = floats / threads
        let clock = ContinuousClock()
        var best = Duration.seconds(1_000)
        var checksum: Float = 0
        for _ in 0..<max(1, passes) {
            var sums = [Float](repeating: 0, count: threads)
            let start = clock.now
            sums.withUnsafeMutableBufferPointer { sums in
                let sums = SendablePointer(sums.baseAddress!)
                let base = SendablePointer(UnsafeRawPointer(buffer))
                DispatchQueue.concurrentPerform(iterations: threads) { part in
                    sums.value[part] = sum(base.value + part * share * 4, floats: share)
                }
            }
            best = min(best, clock.now - start)
            checksum += sums.reduce(0, +)
        }
        return Measurement(bytes: floats * 4, threads: threads, bestPass: best, checksum: checksum)
    }

    private static func sum(_ start: UnsafeRawPointer, floats: Int) -> Float {
        var a = SIMD16<Float>()
        var b = SIMD16<Float>()
        var c = SIMD16<Float>()
        var d = SIMD16<Float>()
        var offset = 0
        let end = floats * 4
        while offset < end {
            a += start.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
            b += start.loadUnaligned(fromByteOffset: offset + 64, as: SIMD16<Float>.self)
            c += start.loadUnaligned(fromByteOffset: offset + 128, as: SIMD16<Float>.self)
            d += start.loadUnaligned(fromByteOffset: offset + 192, as: SIMD16<Float>.self)
            offset += 256
        }
        return ((a + b) + (c + d)).sum()
    }
}

/// A pointer handed to `concurrentPerform`, whose iterations touch disjoint parts of it.
private struct SendablePointer<Pointee>: @unchecked Sendable {
    let value: Pointee
    init(_ value: Pointee) { self.value = value }
}
