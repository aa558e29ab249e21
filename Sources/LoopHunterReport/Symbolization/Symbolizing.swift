/// Turns code addresses into function names and source locations. The production implementation
/// is ``LLVMSymbolizer``; tests may supply a fixed table.
public protocol Symbolizing: Sendable {
    /// Looks up every address. Addresses it cannot help with are missing from the result.
    func symbolize(_ addresses: Set<CodeAddress>) -> [CodeAddress: SymbolLookup]
    /// One line about how symbolization went (tool, version, fallbacks), for reports.
    var description: String { get }
}
