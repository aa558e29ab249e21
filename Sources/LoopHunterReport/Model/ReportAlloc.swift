/// The memory side of a report (schema 1.2): what the thread allocated in the iteration of the
/// breach, the process's live heap, what the report's object's layouts allocated over the run, and
/// the objects whose layouts allocated most. Every byte count is `malloc_usable_size` bytes, so
/// allocated minus freed is the live heap. Nil when the alloc hook family was off (and in 1.0 and
/// 1.1 files).
public struct ReportAlloc: Codable, Sendable, Equatable {
    /// Allocations the thread made in the iteration of the breach, up to the report.
    public let iterationCalls: UInt64
    /// Their bytes.
    public let iterationBytes: UInt64
    /// Bytes the thread freed in that iteration.
    public let iterationFreedBytes: UInt64
    /// The process's live heap when the report was written, as counted since LoopHunter started
    /// (blocks allocated before it are not in it).
    public let liveBytes: UInt64
    /// What the layouts of the report's object allocated over the run; nil when the object is not
    /// one that was laid out (a toolkit warning's, the process heap).
    public let object: ObjectAllocation?
    /// `heap-growth` only: the run of growing iterations.
    public let growth: HeapGrowth?
    /// The (object, hook) pairs whose layouts allocated the most bytes over the run, most first.
    public let topAllocators: [TopAllocator]

    enum CodingKeys: String, CodingKey {
        case iterationCalls = "iteration_calls"
        case iterationBytes = "iteration_bytes"
        case iterationFreedBytes = "iteration_freed_bytes"
        case liveBytes = "live_bytes"
        case object, growth
        case topAllocators = "top_allocators"
    }
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension ReportAlloc: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        iterationCalls = try json.decode(CodingKeys.iterationCalls)
        iterationBytes = try json.decode(CodingKeys.iterationBytes)
        iterationFreedBytes = try json.decode(CodingKeys.iterationFreedBytes)
        liveBytes = try json.decode(CodingKeys.liveBytes)
        object = try json.decodeIfPresent(CodingKeys.object)
        growth = try json.decodeIfPresent(CodingKeys.growth)
        topAllocators = try json.decode(CodingKeys.topAllocators)
    }
}
