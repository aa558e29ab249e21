/// A code address to symbolize: a module, its recorded build-id, the offset in it, and what the
/// offset is. A stack frame's offset is a return address: the call is at `offset - 1`, which is
/// where it is looked up (the return address itself may already be the next line, or the next
/// function when the call was the last instruction). A callback's offset (schema 1.3:
/// `timer.callback`, `window.slowest[].callback`) is a function's entry address: it is looked up
/// at `offset` exactly (one byte before it is the end of the previous function).
public struct CodeAddress: Hashable, Sendable {
    public let module: String
    public let buildID: String?
    public let offset: UInt64
    /// True for a stack frame's return address (looked up at `offset - 1`), false for a function's
    /// entry address (looked up at `offset`).
    public let isReturnAddress: Bool

    public init(module: String, buildID: String?, offset: UInt64, isReturnAddress: Bool = true) {
        self.module = module
        self.buildID = buildID
        self.offset = offset
        self.isReturnAddress = isReturnAddress
    }

    /// The return address of a report's stack frame (`frames`, `created_frames`), when it has a
    /// module and an offset.
    public init?(_ frame: Frame) {
        self.init(frame, isReturnAddress: true)
    }

    /// The entry address of a callback frame object (`timer.callback`, `window.slowest[].callback`),
    /// when it has a module and an offset.
    public init?(callback frame: Frame) {
        self.init(frame, isReturnAddress: false)
    }

    private init?(_ frame: Frame, isReturnAddress: Bool) {
        guard let module = frame.module, let text = frame.offset, text.hasPrefix("0x"),
              let offset = UInt64(text.dropFirst(2), radix: 16) else { return nil }
        self.init(module: module, buildID: frame.buildId, offset: offset, isReturnAddress: isReturnAddress)
    }

    /// The offset to look up: inside the call for a return address, the entry itself otherwise.
    public var lookupOffset: UInt64 {
        isReturnAddress ? (offset > 0 ? offset - 1 : 0) : offset
    }
}
