/// One row of the hook table, as it fared in the process.
public struct SummaryHook: Codable, Sendable, Equatable {
    public let name: String
    public let family: String
    public let toolkit: String?
    /// Its family is switched on (LOOPHUNTER_HOOKS).
    public let enabled: Bool
    /// The original was looked up and found (the host called it, or the process looked like a GUI
    /// program at start-up).
    public let resolved: Bool
    /// Calls counted on threads that ran an event loop or laid something out; nil for the malloc
    /// family's rows (schema 1.2: they are counted as a family, in the summary's `alloc`).
    public let calls: UInt64?
}
