/// A code address to symbolize: a module, its recorded build-id, and the offset of a return
/// address in it (the call is at `offset - 1`).
public struct CodeAddress: Hashable, Sendable {
    public let module: String
    public let buildID: String?
    public let offset: UInt64

    public init(module: String, buildID: String?, offset: UInt64) {
        self.module = module
        self.buildID = buildID
        self.offset = offset
    }

    /// The address of a report frame, when it has a module and an offset.
    public init?(_ frame: Frame) {
        guard let module = frame.module, let text = frame.offset, text.hasPrefix("0x"),
              let offset = UInt64(text.dropFirst(2), radix: 16) else { return nil }
        self.init(module: module, buildID: frame.buildId, offset: offset)
    }
}
