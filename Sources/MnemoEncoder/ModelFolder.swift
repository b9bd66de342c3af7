import Foundation
import Mnemo

/// Where the sentence-encoder model lives on disk, and whether a folder holds a model this
/// encoder can run.
///
/// The default model is all-MiniLM-L6-v2 in the Hugging Face layout. It is looked for in the folder
/// named by the `MNEMO_MODEL` environment variable, else in ``defaultCacheDirectory``
/// (`~/.cache/mnemo/models/all-MiniLM-L6-v2`; the app's Caches folder on iOS and its siblings).
/// An app usually ships the folder in its bundle and passes that URL to ``SentenceEncoder``;
/// the `mnemo model install` command puts it in the cache folder on a development machine.
public enum ModelFolder {
    /// The folder name of the default model.
    public static let defaultModelFolderName = "all-MiniLM-L6-v2"
    /// The environment variable that names a model folder to use instead of the default one.
    public static let environmentVariable = "MNEMO_MODEL"

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

    package static func cacheDirectory(environment: [String: String]) -> URL {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            let caches =
                FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
                ?? URL(fileURLWithPath: NSTemporaryDirectory())
            return caches.appendingPathComponent("mnemo/models/\(defaultModelFolderName)", isDirectory: true)
        #else
            let home =
                environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
                ?? URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)
            return home.appendingPathComponent(".cache/mnemo/models/\(defaultModelFolderName)", isDirectory: true)
        #endif
    }

    /// Whether `directory` exists (the model may still be invalid: see ``validate(directory:)``).
    public static func isInstalled(at directory: URL = modelDirectory) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory)
            && isDirectory.boolValue
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
        func exists(_ name: String) -> Bool {
            fileManager.fileExists(atPath: directory.appendingPathComponent(name).path)
        }
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
                    problems.append(
                        "the vocabulary has \(tokenizer.vocabularySize) tokens but config.json declares vocab_size \(configuration.vocabularySize)"
                    )
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
}
