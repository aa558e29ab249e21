/// What makes two reports' stacks the same for grouping: kind, hook, object type and, per frame,
/// module, offset and in-process symbol (not the return address, which ASLR moves per process).
struct StackKey: Hashable {
    let kind: String
    let hook: String
    let type: String
    /// A warning's format: different messages are different findings.
    let message: String?
    let frames: [FrameKey]

    struct FrameKey: Hashable {
        let module: String?
        let offset: String?
        let symbol: String?
    }

    init(kind: String, hook: String, type: String, message: String?, frames: [Frame]) {
        self.kind = kind
        self.hook = hook
        self.type = type
        self.message = message
        self.frames = frames.map { FrameKey(module: $0.module, offset: $0.offset, symbol: $0.symbol) }
    }
}
