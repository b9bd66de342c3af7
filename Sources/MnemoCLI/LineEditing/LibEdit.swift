#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few functions and variables of libedit's readline interface that the REPL uses, found at
/// run time with `dlopen` and `dlsym`.
///
/// libedit (BSD licence) ships with macOS and is one small package on Linux (`libedit2`), but its
/// headers are a `-dev` package. Loading it at run time keeps `swift build` free of any system
/// library beyond SQLite: when libedit is missing, ``load(environment:)`` returns `nil` and the
/// REPL reads plain lines.
final class LibEdit {
    typealias ReadlineFunction = @convention(c) (UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>?
    typealias StringFunction = @convention(c) (UnsafePointer<CChar>?) -> CInt
    typealias TruncateFunction = @convention(c) (UnsafePointer<CChar>?, CInt) -> CInt
    typealias IntFunction = @convention(c) (CInt) -> Void
    typealias VoidFunction = @convention(c) () -> CInt
    /// `int (*)(FILE *)`: reads one character for the editor.
    typealias GetCharacterFunction = @convention(c) (UnsafeMutablePointer<FILE>?) -> CInt
    /// `char **(*)(const char *text, int start, int end)`: the completions of `text`.
    typealias CompletionFunction =
        @convention(c) (UnsafePointer<CChar>?, CInt, CInt) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

    let readline: ReadlineFunction
    let addHistory: StringFunction
    let readHistory: StringFunction
    let writeHistory: StringFunction
    let truncateHistoryFile: TruncateFunction
    let stifleHistory: IntFunction
    let initialize: VoidFunction
    let parseAndBind: StringFunction

    /// `rl_attempted_completion_function`: called on Tab.
    let attemptedCompletionFunction: UnsafeMutablePointer<CompletionFunction?>
    /// `rl_attempted_completion_over`: set to stop libedit falling back to file-name completion.
    let attemptedCompletionOver: UnsafeMutablePointer<CInt>
    /// `rl_completion_append_character`: what follows a unique completion (a space, or nothing).
    let completionAppendCharacter: UnsafeMutablePointer<CInt>
    /// `rl_line_buffer` and `rl_point`: the line being edited and the cursor's byte offset.
    let lineBuffer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    let point: UnsafeMutablePointer<CInt>
    /// `rl_getc_function`: how the editor reads a character (used when set before `rl_initialize`).
    let getCharacterFunction: UnsafeMutablePointer<GetCharacterFunction?>
    /// `rl_outstream`: where the prompt and the edited line are drawn.
    let outputStream: UnsafeMutablePointer<UnsafeMutablePointer<FILE>?>
    /// `rl_readline_name`: the program name that `~/.editrc` lines may be prefixed with.
    let readlineName: UnsafeMutablePointer<UnsafePointer<CChar>?>

    /// The library names tried in turn: macOS, then the sonames of Debian/Ubuntu and of Fedora.
    static let libraryNames = ["libedit.3.dylib", "libedit.so.2", "libedit.so.0"]

    /// Loads libedit, or returns `nil` when it is missing or lacks a function the REPL needs.
    ///
    /// `MNEMO_LIBEDIT` names the library to load instead, or `none` to read plain lines.
    static func load(environment: [String: String]) -> LibEdit? {
        let names = environment["MNEMO_LIBEDIT"].map { [$0] } ?? libraryNames
        guard names != ["none"] else { return nil }
        for name in names {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { continue }
            if let library = LibEdit(handle: handle) { return library }
            dlclose(handle)
        }
        return nil
    }

    private init?(handle: UnsafeMutableRawPointer) {
        func function<T>(_ name: String, as type: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: type) }
        }
        func variable<T>(_ name: String, as type: T.Type) -> UnsafeMutablePointer<T>? {
            dlsym(handle, name)?.assumingMemoryBound(to: type)
        }
        guard let readline = function("readline", as: ReadlineFunction.self),
            let addHistory = function("add_history", as: StringFunction.self),
            let readHistory = function("read_history", as: StringFunction.self),
            let writeHistory = function("write_history", as: StringFunction.self),
            let truncateHistoryFile = function("history_truncate_file", as: TruncateFunction.self),
            let stifleHistory = function("stifle_history", as: IntFunction.self),
            let initialize = function("rl_initialize", as: VoidFunction.self),
            let parseAndBind = function("rl_parse_and_bind", as: StringFunction.self),
            let attemptedCompletionFunction = variable(
                "rl_attempted_completion_function", as: CompletionFunction?.self),
            let attemptedCompletionOver = variable("rl_attempted_completion_over", as: CInt.self),
            let completionAppendCharacter = variable("rl_completion_append_character", as: CInt.self),
            let lineBuffer = variable("rl_line_buffer", as: UnsafeMutablePointer<CChar>?.self),
            let point = variable("rl_point", as: CInt.self),
            let getCharacterFunction = variable("rl_getc_function", as: GetCharacterFunction?.self),
            let outputStream = variable("rl_outstream", as: UnsafeMutablePointer<FILE>?.self),
            let readlineName = variable("rl_readline_name", as: UnsafePointer<CChar>?.self)
        else { return nil }
        self.readline = readline
        self.addHistory = addHistory
        self.readHistory = readHistory
        self.writeHistory = writeHistory
        self.truncateHistoryFile = truncateHistoryFile
        self.stifleHistory = stifleHistory
        self.initialize = initialize
        self.parseAndBind = parseAndBind
        self.attemptedCompletionFunction = attemptedCompletionFunction
        self.attemptedCompletionOver = attemptedCompletionOver
        self.completionAppendCharacter = completionAppendCharacter
        self.lineBuffer = lineBuffer
        self.point = point
        self.getCharacterFunction = getCharacterFunction
        self.outputStream = outputStream
        self.readlineName = readlineName
    }
}
