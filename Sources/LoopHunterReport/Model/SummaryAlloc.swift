/// Allocation accounting in a process (schema 1.2; nil when the alloc hook family was off).
public struct SummaryAlloc: Codable, Sendable, Equatable {
    /// Allocations reached LoopHunter's wrappers: false when an allocator preloaded before
    /// LoopHunter or linked into the executable took every call (then nothing here is counted).
    public let mallocIsOurs: Bool
    /// The allocator in use and whether its calls reach LoopHunter (nil in files before 1.4).
    public let allocator: SummaryAllocator?
    /// How block sizes were read, e.g. `chunk header (checked against glibc)`.
    public let usableSize: String
    public let calls: UInt64
    /// `malloc_usable_size` bytes allocated over the run.
    public let bytes: UInt64
    public let frees: UInt64
    public let freedBytes: UInt64
    /// Allocated minus freed at exit (blocks allocated before LoopHunter started are not in it).
    public let liveBytes: UInt64
    /// Threads with counters of their own at exit.
    public let threadsCounting: UInt64
    /// Threads that found the counter pool full (counted together, without per-iteration limits).
    public let threadsWithoutCounters: UInt64
    /// The (object, hook) pairs whose layouts allocated the most bytes, most first.
    public let topAllocators: [TopAllocator]

    enum CodingKeys: String, CodingKey {
        case mallocIsOurs = "malloc_is_ours"
        case allocator
        case usableSize = "usable_size"
        case calls, bytes, frees
        case freedBytes = "freed_bytes"
        case liveBytes = "live_bytes"
        case threadsCounting = "threads_counting"
        case threadsWithoutCounters = "threads_without_counters"
        case topAllocators = "top_allocators"
    }
}
