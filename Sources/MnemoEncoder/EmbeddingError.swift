import Foundation
import Mnemo

/// Everything that can go wrong while loading, validating, installing or running an embedding model.
///
/// Every case carries the file, tensor or command it is about, so that ``description`` can tell a
/// user what to fix ("model.safetensors is missing in /path") rather than only that something failed.
public enum EmbeddingError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A required file of a model folder does not exist.
    case missingFile(URL)
    /// A file exists but could not be read.
    case unreadableFile(URL, reason: String)
    /// A JSON configuration file is malformed or lacks a required key.
    case invalidConfiguration(URL, reason: String)
    /// The model uses a feature this encoder does not implement (an activation, a pooling mode…).
    case unsupportedModel(String)
    /// A safetensors file is not well formed (bad header, offsets outside the file…).
    case invalidSafetensors(URL, reason: String)
    /// A tensor the model needs is not in the safetensors file.
    case missingTensor(name: String, file: URL)
    /// A tensor has another shape than the configuration implies.
    case tensorShapeMismatch(name: String, expected: [Int], actual: [Int])
    /// A tensor is stored with an element type this encoder cannot read.
    case tensorTypeMismatch(name: String, expected: String, actual: String)
    /// The vocabulary (`vocab.txt` or `tokenizer.json`) is empty, malformed or lacks a special token.
    case invalidVocabulary(URL, reason: String)
    /// A folder is not a usable model folder; each problem is named on its own line.
    case invalidModelFolder(URL, problems: [String])
    /// Installing the model failed for the reason given.
    case installationFailed(String)
    /// An external command (pip, unzip) exited with a failure status.
    case commandFailed(command: String, status: Int32, output: String)

    /// A one-paragraph message naming the file, tensor or command concerned, fit for a user.
    public var description: String {
        switch self {
        case .missingFile(let url):
            return "missing file: \(url.path)"
        case .unreadableFile(let url, let reason):
            return "cannot read \(url.path): \(reason)"
        case .invalidConfiguration(let url, let reason):
            return "invalid configuration \(url.path): \(reason)"
        case .unsupportedModel(let reason):
            return "unsupported model: \(reason)"
        case .invalidSafetensors(let url, let reason):
            return "invalid safetensors file \(url.path): \(reason)"
        case .missingTensor(let name, let file):
            return "tensor '\(name)' is missing in \(file.path)"
        case .tensorShapeMismatch(let name, let expected, let actual):
            return "tensor '\(name)' has shape \(actual), expected \(expected)"
        case .tensorTypeMismatch(let name, let expected, let actual):
            return "tensor '\(name)' has dtype \(actual), expected \(expected)"
        case .invalidVocabulary(let url, let reason):
            return "invalid vocabulary \(url.path): \(reason)"
        case .invalidModelFolder(let url, let problems):
            let list = problems.map { "  - \($0)" }.joined(separator: "\n")
            return "\(url.path) is not a usable sentence-transformers model folder:\n\(list)"
        case .installationFailed(let reason):
            return "model installation failed: \(reason)"
        case .commandFailed(let command, let status, let output):
            let tail = output.split(separator: "\n").suffix(5).joined(separator: "\n")
            return "command failed with status \(status): \(command)" + (tail.isEmpty ? "" : "\n\(tail)")
        }
    }
}
