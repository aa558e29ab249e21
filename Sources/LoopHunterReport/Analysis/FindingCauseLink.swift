/// One callback of a deferred cause's chain (``FindingCause/addedBy``), symbolized.
public struct FindingCauseLink: Sendable, Equatable, Codable {
    /// The context it was added in: `in-layout`, `deferred` or `geometry-change` (a Qt Quick item's change handler).
    public let kind: String
    /// The entry point that added it, e.g. `g_idle_add`.
    public let addedWith: String?
    /// The callback, named at its entry address.
    public let callback: SymbolizedFrame?
    /// Where it was added, innermost first.
    public let stack: [SymbolizedFrame]
    /// The first frame of the app's own code in ``stack``: the code that added the callback.
    public let adder: SymbolizedFrame?

    public init(kind: String, addedWith: String?, callback: SymbolizedFrame?, stack: [SymbolizedFrame],
                adder: SymbolizedFrame?) {
        self.kind = kind
        self.addedWith = addedWith
        self.callback = callback
        self.stack = stack
        self.adder = adder
    }
}
