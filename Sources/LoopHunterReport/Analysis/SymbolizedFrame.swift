/// A report frame with its name, source location and origin.
public struct SymbolizedFrame: Sendable, Hashable, Codable {
    public let index: Int
    public let pc: String
    public let module: String?
    /// The module's file name, e.g. `libgtk-3.so.0`.
    public let moduleName: String?
    public let offset: String?
    /// Innermost first: inlined functions, then the function containing them. The last one is
    /// the function that owns the frame. Empty when nothing is known.
    public let symbols: [SourceSymbol]
    public let source: SymbolSource
    /// Why debug information was not used for this frame, when it was not.
    public let note: String?
    public let origin: FrameOrigin

    public init(index: Int, pc: String, module: String?, offset: String?, symbols: [SourceSymbol],
                source: SymbolSource, note: String?, origin: FrameOrigin) {
        self.index = index
        self.pc = pc
        self.module = module
        self.moduleName = module.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
        self.offset = offset
        self.symbols = symbols
        self.source = source
        self.note = note
        self.origin = origin
    }

    /// The innermost symbol (what executes at this address).
    public var primary: SourceSymbol? { symbols.first }

    /// `loop_toolbar_layout`, or `libfoo.so+0x1234` when nothing better is known.
    public var displayName: String {
        if let function = primary?.function { return function }
        return "\(moduleName ?? "?")+\(offset ?? pc)"
    }
}
