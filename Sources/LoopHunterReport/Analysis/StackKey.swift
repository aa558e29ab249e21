/// What makes two reports' stacks the same for grouping: kind, hook, object type, detail, the
/// executable (whose own modules are the app's: ``FrameClassifier``) and, per frame, module, offset
/// and in-process symbol (not the return address, which ASLR moves per process).
struct StackKey: Hashable {
    let kind: ReportKind
    let hook: String
    let type: String
    /// A warning's format, a heap growth's top allocator, a timer's callback before symbolization:
    /// see ``Analyzer/groupDetail(of:callback:)``.
    let detail: String?
    let executable: String
    let frames: [FrameKey]

    struct FrameKey: Hashable {
        let module: String?
        let offset: String?
        let symbol: String?
    }

    init(kind: ReportKind, hook: String, type: String, detail: String?, executable: String, frames: [Frame]) {
        self.kind = kind
        self.hook = hook
        self.type = type
        self.detail = detail
        self.executable = executable
        self.frames = frames.map { FrameKey(module: $0.module, offset: $0.offset, symbol: $0.symbol) }
    }
}
