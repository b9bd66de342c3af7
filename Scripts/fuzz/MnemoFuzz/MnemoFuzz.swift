// libFuzzer targets for Mnemo's parsers of untrusted bytes (see FuzzTarget), driven by
// Scripts/fuzz/fuzz.sh.
//
// usage: MnemoFuzz TARGET [libFuzzer flags] [CORPUS_DIR|FILE]...
//        (or MNEMO_FUZZ_TARGET=TARGET MnemoFuzz ...)
//
// Built with FUZZING defined, sanitizer coverage and libFuzzer's no-main runtime (as fuzz.sh
// does), it hands its arguments to libFuzzer. In a plain build (`swift build`, CI, `swift test`)
// it replays the files given, and those in the folders given, through the target, ignoring
// arguments that start with `-`; it stops with a non-zero status at the first failing input.
import Foundation

#if FUZZING
    import CLibFuzzer
#endif

@main
enum MnemoFuzz {
    static let environmentVariable = "MNEMO_FUZZ_TARGET"

    /// The target the libFuzzer callback runs, set once before the driver starts.
    nonisolated(unsafe) static var target = FuzzTarget.jsonl

    static func main() {
        var arguments = CommandLine.arguments
        if arguments.count > 1, let named = FuzzTarget(rawValue: arguments[1]) {
            arguments.remove(at: 1)
            // libFuzzer's -fork, -jobs and -merge modes run this program again with its flags
            // but without the target name; they inherit the environment.
            setenv(environmentVariable, named.rawValue, 1)
            target = named
        } else if let named = ProcessInfo.processInfo.environment[environmentVariable].flatMap(FuzzTarget.init) {
            target = named
        } else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: " ")
            printError("usage: MnemoFuzz TARGET [FILE|DIR]... (or \(environmentVariable)=TARGET)\nTARGET: \(names)")
            exit(2)
        }
        #if FUZZING
            var argc = CInt(arguments.count)
            var argv = arguments.map { strdup($0) } + [nil]
            let status = argv.withUnsafeMutableBufferPointer { buffer in
                var base = buffer.baseAddress
                return LLVMFuzzerRunDriver(&argc, &base) { data, count in
                    MnemoFuzz.target.run(data.map { Data(bytes: $0, count: count) } ?? Data())
                    return 0
                }
            }
            exit(status)
        #else
            replay(arguments.dropFirst().filter { !$0.hasPrefix("-") })
        #endif
    }

    /// Runs each file, and each file of each folder, through `target`.
    static func replay(_ paths: [String]) {
        let manager = FileManager.default
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                printError("\(path): no such file or folder")
                exit(1)
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            let names = (try? manager.contentsOfDirectory(atPath: path)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                files.append((path as NSString).appendingPathComponent(name))
            }
        }
        for file in files {
            guard let bytes = manager.contents(atPath: file) else {
                printError("\(file): unreadable")
                exit(1)
            }
            printError("Running: \(file)")
            target.run(bytes)
        }
        print("\(target.rawValue): \(files.count) inputs passed")
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
