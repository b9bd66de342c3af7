import Foundation
import Mnemo

/// A read-only view of a `.safetensors` file: its JSON header and its tensors.
///
/// The format is an 8-byte little-endian header length, a UTF-8 JSON object mapping tensor names to
/// `{"dtype", "shape", "data_offsets": [begin, end]}` (offsets relative to the first byte after the
/// header), an optional `"__metadata__"` object of strings, then the raw little-endian tensor bytes.
///
/// The file is memory-mapped, so opening a 90 MB model costs no copy; only the tensors actually
/// read with ``floats(_:shape:)`` are copied out. Every offset is checked against the file size
/// when the header is parsed, so a truncated or corrupt file fails at open time with a precise
/// message rather than crashing later.
package struct SafetensorsFile: Sendable {
    /// Where one tensor lives in the file and what it holds.
    package struct TensorInfo: Sendable, Equatable {
        /// The tensor's name, such as `encoder.layer.0.attention.self.query.weight`.
        package var name: String
        /// The element type as written in the header (`F32`, `F16`, `I64`…).
        package var dtype: String
        /// The dimensions, outermost first (PyTorch order).
        package var shape: [Int]
        /// The byte range of the tensor's data, relative to the start of the data section.
        package var byteRange: Range<Int>

        /// The number of elements (`1` for a scalar).
        package var elementCount: Int { shape.reduce(1, *) }
    }

    /// The file this view reads.
    package let url: URL
    /// Every tensor of the file, by name.
    package let tensors: [String: TensorInfo]
    /// The string pairs of the header's `__metadata__` object (empty when absent).
    package let metadata: [String: String]

    private let bytes: Data
    private let dataStart: Int

    /// The largest header accepted; real headers are a few kilobytes, so anything bigger is corruption.
    private static let maximumHeaderSize = 100 << 20

    /// Opens and validates a safetensors file.
    ///
    /// - Throws: ``EmbeddingError/missingFile(_:)`` when the file does not exist,
    ///   ``EmbeddingError/invalidSafetensors(_:reason:)`` when the header is malformed or an entry
    ///   points outside the file.
    package init(url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else { throw EmbeddingError.missingFile(url) }
        let bytes: Data
        do {
            // Mapped rather than read: the weights are copied once, into packed form, by the encoder.
            bytes = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw EmbeddingError.unreadableFile(url, reason: error.localizedDescription)
        }
        try self.init(url: url, bytes: bytes)
    }

    /// Parses safetensors content that is already in memory; `url` is only used in error messages.
    package init(url: URL, bytes: Data) throws {
        func fail(_ reason: String) -> EmbeddingError { .invalidSafetensors(url, reason: reason) }
        guard bytes.count >= 8 else {
            throw fail("file is \(bytes.count) bytes, shorter than the 8-byte header length")
        }
        var headerLength: UInt64 = 0
        for i in 0..<8 { headerLength |= UInt64(bytes[bytes.startIndex + i]) << (8 * UInt64(i)) }
        guard headerLength <= UInt64(Self.maximumHeaderSize), Int(headerLength) <= bytes.count - 8 else {
            throw fail("header length \(headerLength) exceeds the file size \(bytes.count)")
        }
        let headerStart = bytes.startIndex + 8
        let headerData = bytes[headerStart..<(headerStart + Int(headerLength))]
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: headerData)
        } catch {
            throw fail("header is not valid JSON (\(error.localizedDescription))")
        }
        guard let header = json as? [String: Any] else { throw fail("header is not a JSON object") }

        let dataStart = headerStart + Int(headerLength)
        let dataSize = bytes.endIndex - dataStart
        var tensors: [String: TensorInfo] = [:]
        var metadata: [String: String] = [:]
        for (name, value) in header {
            if name == "__metadata__" {
                guard let pairs = value as? [String: Any] else { throw fail("__metadata__ is not an object") }
                for (key, value) in pairs {
                    guard let string = value as? String else {
                        throw fail("__metadata__ value for '\(key)' is not a string")
                    }
                    metadata[key] = string
                }
                continue
            }
            guard let entry = value as? [String: Any] else { throw fail("entry '\(name)' is not an object") }
            guard let dtype = entry["dtype"] as? String else { throw fail("entry '\(name)' has no string 'dtype'") }
            guard let shapeValues = entry["shape"] as? [Any],
                let shape = Self.integers(shapeValues), shape.allSatisfy({ $0 >= 0 })
            else {
                throw fail("entry '\(name)' has no valid 'shape'")
            }
            guard let offsetValues = entry["data_offsets"] as? [Any], let offsets = Self.integers(offsetValues),
                offsets.count == 2
            else {
                throw fail("entry '\(name)' has no valid 'data_offsets'")
            }
            let (begin, end) = (offsets[0], offsets[1])
            guard begin >= 0, begin <= end, end <= dataSize else {
                throw fail(
                    "entry '\(name)' has data_offsets [\(begin), \(end)] outside the \(dataSize)-byte data section")
            }
            let (elements, overflow) = shape.reduce((1, false)) { acc, dim in
                let product = acc.0.multipliedReportingOverflow(by: dim)
                return (product.partialValue, acc.1 || product.overflow)
            }
            if let size = Self.elementSize(of: dtype) {
                let byteCount = elements.multipliedReportingOverflow(by: size)
                guard !overflow, !byteCount.overflow, byteCount.partialValue == end - begin else {
                    let needed = overflow || byteCount.overflow ? "more than Int.max" : "\(byteCount.partialValue)"
                    throw fail(
                        "entry '\(name)' spans \(end - begin) bytes, but shape \(shape) of \(dtype) needs \(needed)")
                }
            }
            tensors[name] = TensorInfo(name: name, dtype: dtype, shape: shape, byteRange: begin..<end)
        }
        self.url = url
        self.bytes = bytes
        self.dataStart = dataStart
        self.tensors = tensors
        self.metadata = metadata
    }

    /// The entry for `name`, or an error naming the tensor and the file.
    package func info(_ name: String) throws -> TensorInfo {
        guard let info = tensors[name] else { throw EmbeddingError.missingTensor(name: name, file: url) }
        return info
    }

    /// Checks that `name` exists, holds `F32` values and, when `shape` is given, has exactly that shape.
    @discardableResult
    package func checkFloatTensor(_ name: String, shape: [Int]? = nil) throws -> TensorInfo {
        let info = try info(name)
        guard info.dtype == "F32" else {
            throw EmbeddingError.tensorTypeMismatch(name: name, expected: "F32", actual: info.dtype)
        }
        if let shape, info.shape != shape {
            throw EmbeddingError.tensorShapeMismatch(name: name, expected: shape, actual: info.shape)
        }
        return info
    }

    /// Copies an `F32` tensor out of the file, row-major in the stored order.
    ///
    /// - Parameters:
    ///   - name: The tensor's name.
    ///   - shape: The shape the caller expects; a different stored shape is an error.
    /// - Throws: ``EmbeddingError/missingTensor(name:file:)``,
    ///   ``EmbeddingError/tensorTypeMismatch(name:expected:actual:)`` or
    ///   ``EmbeddingError/tensorShapeMismatch(name:expected:actual:)``.
    package func floats(_ name: String, shape: [Int]? = nil) throws -> [Float] {
        let info = try checkFloatTensor(name, shape: shape)
        let count = info.elementCount
        let start = dataStart + info.byteRange.lowerBound
        return [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            bytes.withUnsafeBytes { raw in
                // The data section has no alignment guarantee, so copy bytes instead of binding memory.
                let source = UnsafeRawBufferPointer(
                    rebasing: raw[(start - bytes.startIndex)..<(start - bytes.startIndex + count * 4)])
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: source)
            }
            #if _endian(big)
                for i in 0..<count { buffer[i] = Float(bitPattern: UInt32(littleEndian: buffer[i].bitPattern)) }
            #endif
            initialized = count
        }
    }

    /// The byte size of one element of a safetensors dtype, or nil for a type this reader does not know.
    static func elementSize(of dtype: String) -> Int? {
        switch dtype {
        case "BOOL", "U8", "I8", "F8_E4M3", "F8_E5M2": return 1
        case "U16", "I16", "F16", "BF16": return 2
        case "U32", "I32", "F32": return 4
        case "U64", "I64", "F64": return 8
        default: return nil
        }
    }

    /// Converts JSON numbers to `Int`, rejecting fractions and anything that is not a number.
    private static func integers(_ values: [Any]) -> [Int]? {
        var result: [Int] = []
        result.reserveCapacity(values.count)
        for value in values {
            if let int = value as? Int {
                result.append(int)
            } else if let number = value as? NSNumber, let int = Int(exactly: number.doubleValue) {
                result.append(int)
            } else {
                return nil
            }
        }
        return result
    }
}

extension SafetensorsFile {
    /// Serialises `F32` tensors into safetensors bytes.
    ///
    /// Used to build small synthetic model folders (tests, tools). Tensors are written in the given
    /// order; the header is padded with spaces to a multiple of 8 bytes, as the reference writer does.
    package static func encode(
        _ tensors: [(name: String, shape: [Int], values: [Float])],
        metadata: [String: String] = [:]
    ) -> Data {
        var header: [String: Any] = [:]
        if !metadata.isEmpty { header["__metadata__"] = metadata }
        var offset = 0
        for tensor in tensors {
            precondition(
                tensor.shape.reduce(1, *) == tensor.values.count, "shape does not match value count for \(tensor.name)")
            let size = tensor.values.count * 4
            header[tensor.name] =
                ["dtype": "F32", "shape": tensor.shape, "data_offsets": [offset, offset + size]] as [String: Any]
            offset += size
        }
        var headerData =
            (try? JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])) ?? Data("{}".utf8)
        while headerData.count % 8 != 0 { headerData.append(0x20) }
        var data = Data()
        var length = UInt64(headerData.count).littleEndian
        withUnsafeBytes(of: &length) { data.append(contentsOf: $0) }
        data.append(headerData)
        for tensor in tensors {
            for value in tensor.values {
                var bits = value.bitPattern.littleEndian
                withUnsafeBytes(of: &bits) { data.append(contentsOf: $0) }
            }
        }
        return data
    }
}
