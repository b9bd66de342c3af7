import Foundation
import Mnemo

extension SentenceEncoder {
    /// Loads the installed default model, or returns nil when none is installed.
    ///
    /// The folder is ``ModelFolder/modelDirectory`` (`MNEMO_MODEL`, else the cache folder). A missing
    /// folder means "not installed" and gives nil, so the caller can fall back to
    /// `HashingEmbedder` (and say so). A folder that exists but is broken is an error, not a
    /// silent fallback: the user asked for that model and should learn what is wrong with it.
    ///
    /// - Parameters:
    ///   - directory: The folder to load; ``ModelFolder/modelDirectory`` by default.
    ///   - batchSize: Texts per forward pass.
    ///   - threadCount: Threads per forward pass; all active processors by default.
    /// - Throws: ``EmbeddingError`` when the folder exists but cannot be loaded.
    public static func loadDefault(
        directory: URL = ModelFolder.modelDirectory, batchSize: Int = 32,
        threadCount: Int? = nil
    ) throws -> SentenceEncoder? {
        guard ModelFolder.isInstalled(at: directory) else { return nil }
        return try SentenceEncoder(modelDirectory: directory, batchSize: batchSize, threadCount: threadCount)
    }
}
