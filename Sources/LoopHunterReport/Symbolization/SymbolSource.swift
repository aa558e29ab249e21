/// Where a frame's name came from.
public enum SymbolSource: String, Sendable, Codable {
    /// llvm-symbolizer, on the very module that ran (build-id checked): function, file and line.
    case debugInfo = "debug-info"
    /// The name the preload proved in the process (an exported symbol containing the address).
    case inProcess = "in-process"
    /// No name: a stripped function, or a module without symbols.
    case none
    /// The interpreter's own stack (Python, JavaScript, QML): the function, file and line it gave when
    /// the stack was taken (a frame of a ``ScriptStack``; its module is the language).
    case script
}
