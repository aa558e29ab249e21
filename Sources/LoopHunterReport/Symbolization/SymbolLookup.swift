/// The symbolization of one code address.
public struct SymbolLookup: Hashable, Sendable {
    /// Innermost first: inlined functions, then the function that contains them.
    public let symbols: [SourceSymbol]
    public let source: SymbolSource
    /// Why debug information was not used ("build-id differs ..."), or nil.
    public let note: String?

    public init(symbols: [SourceSymbol], source: SymbolSource, note: String?) {
        self.symbols = symbols
        self.source = source
        self.note = note
    }

    public static let unknown = SymbolLookup(symbols: [], source: .none, note: nil)
}
