/// One iteration of the thread's event loop in the run-up to a breach.
public struct HistoryEntry: Codable, Sendable, Equatable {
    public let iteration: UInt64
    /// Microseconds since LoopHunter started in the process.
    public let startUs: UInt64
    /// From the loop's wake-up to its next wait (the last entry: to the breach).
    public let busyUs: UInt64
    /// Layout calls counted on the thread in the iteration.
    public let layoutCalls: UInt64
    /// How long the loop then asked to sleep: -1 forever, nil unknown (the iteration of the breach).
    public let waitMs: Int?
    /// The reported object's size in that iteration (what it was given), when known (schema 1.1).
    public let objectSize: Size?
    /// Allocations the thread made in the iteration (schema 1.2; nil when the alloc hook family
    /// was off, and in older files).
    public let allocCalls: UInt64?
    /// Their `malloc_usable_size` bytes (schema 1.2).
    public let allocBytes: UInt64?
    /// `malloc_usable_size` bytes the thread freed in the iteration (schema 1.2).
    public let freedBytes: UInt64?

    enum CodingKeys: String, CodingKey {
        case iteration
        case startUs = "start_us"
        case busyUs = "busy_us"
        case layoutCalls = "layout_calls"
        case waitMs = "wait_ms"
        case objectSize = "object_size"
        case allocCalls = "alloc_calls"
        case allocBytes = "alloc_bytes"
        case freedBytes = "freed_bytes"
    }
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension HistoryEntry: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        iteration = try json.decode(CodingKeys.iteration)
        startUs = try json.decode(CodingKeys.startUs)
        busyUs = try json.decode(CodingKeys.busyUs)
        layoutCalls = try json.decode(CodingKeys.layoutCalls)
        waitMs = try json.decodeIfPresent(CodingKeys.waitMs)
        objectSize = try json.decodeIfPresent(CodingKeys.objectSize)
        allocCalls = try json.decodeIfPresent(CodingKeys.allocCalls)
        allocBytes = try json.decodeIfPresent(CodingKeys.allocBytes)
        freedBytes = try json.decodeIfPresent(CodingKeys.freedBytes)
    }
}
