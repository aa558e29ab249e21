/// What the layouts of one object allocated over the run (while its layout hook was on the
/// thread's stack): "the layout of GtkLabel 'status' allocated 38 MiB in 1200 passes".
public struct ObjectAllocation: Codable, Sendable, Equatable {
    /// `malloc_usable_size` bytes.
    public let bytes: UInt64
    /// Allocation calls.
    public let calls: UInt64
    /// The object's layouts (through the report's hook) over the run.
    public let layouts: UInt64
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension ObjectAllocation: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        bytes = try json.decode(CodingKeys.bytes)
        calls = try json.decode(CodingKeys.calls)
        layouts = try json.decode(CodingKeys.layouts)
    }
}
