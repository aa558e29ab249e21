/// The memory side of a result's property bag (findings whose reports carry allocation data):
/// the representative report's `alloc` section, keys in camelCase as in the rest of the bag.
/// Bytes are `malloc_usable_size` bytes.
struct SARIFAllocProperties: Codable, Sendable, Equatable {
    let iterationCalls: UInt64
    let iterationBytes: UInt64
    let iterationFreedBytes: UInt64
    let liveBytes: UInt64
    /// What the layouts of the result's object allocated over the run.
    let object: ObjectAllocation?
    /// heap-growth: the growing iterations in a row and the live heap they started from.
    let growthIterations: UInt64?
    let growthStartLiveBytes: UInt64?
    /// The objects whose layouts allocated most over the run, most first.
    let topAllocators: [TopAllocator]

    init(_ alloc: ReportAlloc) {
        iterationCalls = alloc.iterationCalls
        iterationBytes = alloc.iterationBytes
        iterationFreedBytes = alloc.iterationFreedBytes
        liveBytes = alloc.liveBytes
        object = alloc.object
        growthIterations = alloc.growth?.iterations
        growthStartLiveBytes = alloc.growth?.startLiveBytes
        topAllocators = alloc.topAllocators
    }
}
