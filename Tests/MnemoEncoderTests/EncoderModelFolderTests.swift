import Foundation
import Testing

@testable import Mnemo
@testable import MnemoCLI
@testable import MnemoEncoder

/// Loading, validation, installation and error messages, on tiny synthetic model folders.
@Suite("Encoder model folders")
struct EncoderModelFolderTests {
    @Test("a synthetic model loads and gives unit vectors, the same alone and batched")
    func synthetic() throws {
        let model = try SyntheticModel()
        defer { model.remove() }
        let encoder = try SentenceEncoder(modelDirectory: model.directory, name: "test/tiny")
        #expect(encoder.identity == EmbeddingModelIdentity(name: "test/tiny", dimension: 8))
        let texts = [
            "hello world", "tea, coffee.", "",
            "hello hello hello hello hello hello hello hello hello hello hello hello hello hello hello",
        ]
        let batch = encoder.encode(texts)
        for (index, text) in texts.enumerated() {
            let norm = batch[index].reduce(0) { $0 + $1 * $1 }.squareRoot()
            #expect(abs(norm - 1) < 1e-5)
            #expect(encoder.encode(text) == batch[index])
        }
        // max_seq_length 16 from sentence_bert_config.json truncates the long text.
        #expect(encoder.tokenizer.encode(texts[3], maxLength: encoder.configuration.maxSequenceLength).count == 16)
        // Without a model card, the name defaults to the folder's name.
        #expect(try SentenceEncoder(modelDirectory: model.directory).identity.name == model.directory.lastPathComponent)
    }

    @Test("large batches are split by token count without losing or reordering texts")
    func tokenBudget() throws {
        let model = try SyntheticModel()
        defer { model.remove() }
        let encoder = try SentenceEncoder(modelDirectory: model.directory, batchSize: 10_000)
        // 700 texts of 16 tokens: 11,200 tokens, more than one pass takes.
        let texts = (0..<700).map { index in
            Array(repeating: index % 3 == 0 ? "hello" : "tea", count: 20).joined(separator: " ")
                + (index % 2 == 0 ? " coffee" : "")
        }
        let vectors = encoder.encode(texts)
        #expect(vectors.count == texts.count)
        for index in [0, 1, 2, 3, 255, 256, 511, 699] {
            #expect(vectors[index] == encoder.encode(texts[index]), "text \(index)")
        }
    }

    @Test("a folder without model.safetensors names the missing file")
    func missingWeights() throws {
        let model = try SyntheticModel(omit: ["model.safetensors"])
        defer { model.remove() }
        #expect {
            _ = try SentenceEncoder(modelDirectory: model.directory)
        } throws: { error in
            error as? EmbeddingError == .missingFile(model.directory.appendingPathComponent("model.safetensors"))
                && "\(error)".contains("model.safetensors")
        }
        #expect {
            try ModelFolder.validate(directory: model.directory)
        } throws: { error in
            "\(error)".contains("model.safetensors is missing")
        }
    }

    @Test("a tensor of the wrong shape is named with both shapes")
    func wrongShape() throws {
        let name = "encoder.layer.0.intermediate.dense.weight"
        let model = try SyntheticModel(reshape: [name: [16, 7]])
        defer { model.remove() }
        for load in [
            { _ = try SentenceEncoder(modelDirectory: model.directory) },
            { try ModelFolder.validate(directory: model.directory) },
        ] {
            #expect {
                try load()
            } throws: { error in
                let message = "\(error)"
                return message.contains(name) && message.contains("[16, 7]") && message.contains("[16, 8]")
            }
        }
    }

    @Test("validation lists every missing file at once")
    func everyProblem() throws {
        let model = try SyntheticModel(omit: ["config.json", "vocab.txt", "model.safetensors"])
        defer { model.remove() }
        #expect {
            try ModelFolder.validate(directory: model.directory)
        } throws: { error in
            guard case .invalidModelFolder(_, let problems)? = error as? EmbeddingError else { return false }
            return problems.count == 3 && problems.contains("config.json is missing")
                && problems.contains { $0.hasPrefix("vocab.txt is missing") }
        }
        #expect(throws: EmbeddingError.self) {
            try ModelFolder.validate(directory: model.directory.appendingPathComponent("nope"))
        }
    }

    @Test("unsupported pooling modes are refused by name")
    func unsupportedPooling() throws {
        let model = try SyntheticModel(pooling: ["pooling_mode_weightedmean_tokens": true])
        defer { model.remove() }
        #expect {
            _ = try BertConfiguration(directory: model.directory)
        } throws: { error in
            "\(error)".contains("pooling_mode_weightedmean_tokens")
        }
        let two = try SyntheticModel(pooling: ["pooling_mode_mean_tokens": true, "pooling_mode_cls_token": true])
        defer { two.remove() }
        #expect(throws: EmbeddingError.self) { _ = try BertConfiguration(directory: two.directory) }
        let cls = try SyntheticModel(pooling: ["pooling_mode_cls_token": true])
        defer { cls.remove() }
        #expect(try BertConfiguration(directory: cls.directory).pooling == .cls)
    }

    @Test("safetensors: round trip, truncated file, wrong dtype")
    func safetensors() throws {
        let data = SafetensorsFile.encode(
            [("a", [2, 3], [1, 2, 3, 4, 5, 6]), ("b", [1], [7])], metadata: ["format": "pt"])
        let url = URL(fileURLWithPath: "/tmp/x.safetensors")
        let file = try SafetensorsFile(url: url, bytes: data)
        #expect(try file.floats("a", shape: [2, 3]) == [1, 2, 3, 4, 5, 6])
        #expect(file.metadata == ["format": "pt"])
        #expect(throws: EmbeddingError.tensorShapeMismatch(name: "a", expected: [3, 2], actual: [2, 3])) {
            _ = try file.floats("a", shape: [3, 2])
        }
        #expect(throws: EmbeddingError.missingTensor(name: "c", file: url)) { _ = try file.floats("c") }
        #expect {
            _ = try SafetensorsFile(url: url, bytes: data.prefix(data.count - 4))
        } throws: { error in
            "\(error)".contains("outside")
        }
        #expect(throws: EmbeddingError.self) { _ = try SafetensorsFile(url: url, bytes: Data([1, 2, 3])) }
        var header = Data(#"{"i": {"dtype": "I64", "shape": [1], "data_offsets": [0, 8]}}"#.utf8)
        while header.count % 8 != 0 { header.append(0x20) }
        var bytes = Data()
        var length = UInt64(header.count).littleEndian
        withUnsafeBytes(of: &length) { bytes.append(contentsOf: $0) }
        bytes.append(header)
        bytes.append(Data(count: 8))
        let ints = try SafetensorsFile(url: url, bytes: bytes)
        #expect(throws: EmbeddingError.tensorTypeMismatch(name: "i", expected: "F32", actual: "I64")) {
            _ = try ints.floats("i")
        }
    }

    @Test("install validates, copies atomically and replaces an older copy")
    func install() throws {
        let model = try SyntheticModel()
        defer { model.remove() }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mnemo-install-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let destination = root.appendingPathComponent("models/tiny")
        var lines: [String] = []
        try ModelInstaller.install(from: model.directory, to: destination) { lines.append($0) }
        #expect(!lines.isEmpty)
        try ModelFolder.validate(directory: destination)
        try ModelInstaller.install(from: model.directory, to: destination)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: destination.deletingLastPathComponent().path) == [
                "tiny"
            ])

        let broken = try SyntheticModel(omit: ["vocab.txt"])
        defer { broken.remove() }
        let other = root.appendingPathComponent("models/other")
        #expect(throws: EmbeddingError.self) { try ModelInstaller.install(from: broken.directory, to: other) }
        #expect(!FileManager.default.fileExists(atPath: other.path))
        #expect(try SentenceEncoder.loadDefault(directory: other) == nil)
        #expect(try SentenceEncoder.loadDefault(directory: destination) != nil)
    }

    @Test("MNEMO_MODEL overrides the default cache folder under HOME")
    func locations() {
        #expect(
            ModelFolder.modelDirectory(environment: ["HOME": "/home/ana"]).path
                == "/home/ana/.cache/mnemo/models/all-MiniLM-L6-v2")
        #expect(
            ModelFolder.modelDirectory(environment: ["HOME": "/home/ana", "MNEMO_MODEL": "/opt/m"]).path == "/opt/m")
        #expect(
            ModelFolder.modelDirectory(environment: ["HOME": "/home/ana", "MNEMO_MODEL": ""]).path.hasPrefix(
                "/home/ana/"))
    }
}
