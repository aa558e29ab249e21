/// One of the (object, hook) pairs whose layouts allocated the most over the run, in a report's
/// `alloc.top_allocators` or a summary's `alloc.top_allocators`.
public struct TopAllocator: Codable, Sendable, Equatable {
    /// `0x...`; the object may be gone (its address reused).
    public let address: String
    public let type: String?
    /// The object's name: null for now (the object may be gone, so nothing of it is read), and
    /// absent in summaries.
    public let name: String?
    /// The layout hook whose calls the allocations were charged to.
    public let hook: String?
    /// `malloc_usable_size` bytes allocated while that layout ran.
    public let bytes: UInt64
    public let calls: UInt64
    /// The object's layouts through `hook`.
    public let layouts: UInt64
}
