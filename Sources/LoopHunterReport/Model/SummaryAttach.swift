/// A `loophunter attach` session (schema 1.9): how the hooks went into the running process, how soon
/// LoopHunter saw its event loop, and why the session ended.
public struct SummaryAttach: Codable, Sendable, Equatable {
    /// Modules whose GOT entries were pointed at LoopHunter's wrappers.
    public let modules: UInt64
    public let entriesRedirected: UInt64
    /// Entries naming a hooked function but bound elsewhere (another symbol version or namespace):
    /// left as they were, their calls are not seen.
    public let entriesLeft: UInt64
    /// Entries whose page could not be made writable.
    public let entriesUnwritable: UInt64
    /// Nanoseconds from the hooks being in to the first event-loop iteration boundary LoopHunter
    /// counted; nil when it saw none (no known loop, or an idle one).
    public let firstIterationNs: UInt64?
    /// Why the session ended: `command` (the watch was over), `deadline` (the command had not come
    /// back in time), `command gone` (it was killed), `replaced` (a later attach took over the
    /// session of a command that was gone), `failed`; nil while it runs, or when the program exited.
    public let endedBy: String?

    enum CodingKeys: String, CodingKey {
        case modules
        case entriesRedirected = "entries_redirected"
        case entriesLeft = "entries_left"
        case entriesUnwritable = "entries_unwritable"
        case firstIterationNs = "first_iteration_ns"
        case endedBy = "ended_by"
    }
}
