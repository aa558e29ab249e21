/// A thread's allocation counters over the run (a summary's `threads[].alloc`).
public struct AllocCounts: Codable, Sendable, Equatable {
    /// Allocation calls.
    public let calls: UInt64
    /// Their `malloc_usable_size` bytes.
    public let bytes: UInt64
    public let frees: UInt64
    public let freedBytes: UInt64

    enum CodingKeys: String, CodingKey {
        case calls, bytes, frees
        case freedBytes = "freed_bytes"
    }
}
