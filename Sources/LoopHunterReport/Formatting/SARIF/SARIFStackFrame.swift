/// One frame of a stack: its location (source file and function; absent when nothing names the
/// frame, whose module and offset are then all there is), module and origin.
struct SARIFStackFrame: Codable, Sendable, Equatable {
    let location: SARIFLocation?
    /// The module's file name, e.g. `libtoykit.so`.
    let module: String?
    let properties: SARIFFrameProperties
}
