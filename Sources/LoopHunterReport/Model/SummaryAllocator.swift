/// The allocator that serves a process's malloc calls, as the preload found it at start-up.
public struct SummaryAllocator: Codable, Sendable, Equatable {
    /// `glibc`, `jemalloc`, `tcmalloc`, `mimalloc`, `glibc (malloc debugging)`, a sanitizer's, the
    /// module's file name, or `the program itself` (a statically linked allocator).
    public let name: String
    /// The module that defines its `malloc`.
    public let module: String
    /// It takes the calls before LoopHunter sees them (preloaded ahead of it, or the program's own
    /// malloc): allocations are not counted.
    public let aheadOfLoophunter: Bool
    /// What that means and what to do, in a sentence; nil when nothing needs saying.
    public let note: String?

    enum CodingKeys: String, CodingKey {
        case name, module, note
        case aheadOfLoophunter = "ahead_of_loophunter"
    }
}
