import Foundation
import Mnemo
import MnemoEncoder

/// Chooses the CLI's embedder: the installed sentence-transformers model, or the hashed n-gram
/// fallback when none is installed, announced on stderr so it is never silent.
enum EmbedderLoader {
    static func load() throws -> any Embedder {
        if let encoder = try SentenceEncoder.loadDefault() { return encoder }
        Output.note(
            """
            note: no embedding model at \(ModelFolder.modelDirectory.path); semantic search uses the hashed \
            n-gram fallback. Run `mnemo model install` for all-MiniLM-L6-v2.
            """)
        return HashingEmbedder()
    }
}
