import Foundation
import Testing

/// Locates the files the embedding tests need: the repository's `Fixtures/` folder and the
/// all-MiniLM-L6-v2 model folder.
///
/// The model is not part of the repository (90 MB). It is looked up in `MNEMO_MODEL` (a folder
/// path), else in the default cache folder that `mnemo model install` fills. Tests that need it are
/// skipped with a reason when it is absent on a developer's machine, but fail when the `CI`
/// environment variable is set, because CI installs the model and a silent skip there would hide
/// a broken install.
package enum ModelFixture {
    /// The repository root, found from this source file's location (`Tests/MnemoTestSupport/`).
    package static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // MnemoTestSupport
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent()

    /// The `Fixtures/` folder of the repository.
    package static let fixtures: URL = repositoryRoot.appendingPathComponent("Fixtures")

    /// The reference token ids and vectors produced with sentence-transformers.
    package static let referenceFile: URL = fixtures.appendingPathComponent("reference/minilm_reference.json")

    /// Whether this run is a CI run, where a missing model is an error rather than a skip.
    package static var isCI: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"] else { return false }
        return !value.isEmpty && value != "0" && value.lowercased() != "false"
    }

    /// The model folder to use: `MNEMO_MODEL`, else `~/.cache/mnemo/models/all-MiniLM-L6-v2`.
    package static var modelDirectory: URL {
        if let path = ProcessInfo.processInfo.environment["MNEMO_MODEL"], !path.isEmpty {
            return URL(fileURLWithPath: (path as NSString).expandingTildeInPath, isDirectory: true)
        }
        let home =
            ProcessInfo.processInfo.environment["HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".cache/mnemo/models/all-MiniLM-L6-v2", isDirectory: true)
    }

    /// Whether the model folder holds the files the encoder reads.
    package static var modelIsPresent: Bool {
        let required = ["config.json", "model.safetensors"]
        let hasVocabulary = ["vocab.txt", "tokenizer.json"].contains {
            FileManager.default.fileExists(atPath: modelDirectory.appendingPathComponent($0).path)
        }
        return hasVocabulary
            && required.allSatisfy {
                FileManager.default.fileExists(atPath: modelDirectory.appendingPathComponent($0).path)
            }
    }

    /// The condition for `@Test(.enabled(if:))`: run when the model is present, and also run (and so
    /// fail loudly in ``requireModel()``) on CI when it is not.
    package static var shouldRunModelTests: Bool { modelIsPresent || isCI }

    /// The reason shown when model tests are skipped.
    package static var skipReason: Comment {
        "all-MiniLM-L6-v2 is not installed at \(modelDirectory.path); set MNEMO_MODEL to a model folder or run `mnemo model install`"
    }

    /// Returns the model folder, recording a test failure when it is missing (only reached on CI).
    package static func requireModel(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        try #require(
            modelIsPresent, "CI is set but the model is missing at \(modelDirectory.path)",
            sourceLocation: sourceLocation)
        return modelDirectory
    }
}

/// One item of `Fixtures/reference/minilm_reference.json`.
package struct ReferenceItem: Decodable, Sendable {
    package var text: String
    package var tokenIDs: [Int32]
    package var tokens: [String]
    package var embedding: [Float]

    package enum CodingKeys: String, CodingKey {
        case text, tokens, embedding
        case tokenIDs = "token_ids"
    }
}

/// The whole reference file.
package struct ReferenceFile: Decodable, Sendable {
    package var model: String
    package var maxSeqLength: Int
    package var dimension: Int
    package var items: [ReferenceItem]

    package enum CodingKeys: String, CodingKey {
        case model, dimension, items
        case maxSeqLength = "max_seq_length"
    }

    /// Loads and caches the reference file.
    package static func load() throws -> ReferenceFile {
        let data = try Data(contentsOf: ModelFixture.referenceFile)
        return try JSONDecoder().decode(ReferenceFile.self, from: data)
    }
}
