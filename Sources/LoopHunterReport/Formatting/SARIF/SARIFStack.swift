/// A call stack, innermost frame first.
struct SARIFStack: Codable, Sendable, Equatable {
    let message: SARIFMessage
    let frames: [SARIFStackFrame]
}
