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
    /// Summaries (schema 1.5): the object was destroyed before the summary was written (its
    /// figures were kept when its toolkit finalized it); nil in reports and older summaries.
    public let destroyed: Bool?
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension TopAllocator: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        address = try json.decode(CodingKeys.address)
        type = try json.decodeIfPresent(CodingKeys.type)
        name = try json.decodeIfPresent(CodingKeys.name)
        hook = try json.decodeIfPresent(CodingKeys.hook)
        bytes = try json.decode(CodingKeys.bytes)
        calls = try json.decode(CodingKeys.calls)
        layouts = try json.decode(CodingKeys.layouts)
        destroyed = try json.decodeIfPresent(CodingKeys.destroyed)
    }
}
