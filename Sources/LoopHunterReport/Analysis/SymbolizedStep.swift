/// One of a slow window's slowest steps (``WindowStep``), its callback named.
public struct SymbolizedStep: Sendable, Hashable, Codable {
    public let signal: String
    public let objectType: String
    /// toykit: the callback dispatched, symbolized at its entry address; nil in GTK.
    public let callback: SymbolizedFrame?
    /// The longest single one, in µs.
    public let durationUs: UInt64
    public let count: UInt64

    public init(signal: String, objectType: String, callback: SymbolizedFrame?, durationUs: UInt64, count: UInt64) {
        self.signal = signal
        self.objectType = objectType
        self.callback = callback
        self.durationUs = durationUs
        self.count = count
    }

    /// `slow_window_build (step)` for a callback, `realize on GtkWindow` for a signal.
    public var label: String {
        if let callback { return "\(callback.displayName) (\(signal))" }
        return "\(signal) on \(objectType)"
    }
}
