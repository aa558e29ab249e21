/// One of the slowest steps between a window's creation and its first frame (schema 1.3): GTK: a
/// signal emission per (signal name, object type), timed inclusively through the interposed
/// `g_signal_emit`; toykit: a dispatched source's callback (`timer`, `idle` or `input`).
public struct WindowStep: Codable, Sendable, Equatable {
    /// The signal name (GTK), or the kind of toykit source.
    public let signal: String
    /// The emitting object's type (GTK), or `(toykit source)`.
    public let objectType: String
    /// toykit: the callback dispatched, a frame object like those of `frames` whose `offset` is a
    /// function's ENTRY address (symbolize it at `offset` exactly, not `offset - 1`). Nil in GTK.
    public let callback: Frame?
    /// The longest single one, in µs.
    public let durationUs: UInt64
    /// How many there were.
    public let count: UInt64

    enum CodingKeys: String, CodingKey {
        case signal
        case objectType = "object_type"
        case callback
        case durationUs = "duration_us"
        case count
    }
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension WindowStep: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        signal = try json.decode(CodingKeys.signal)
        objectType = try json.decode(CodingKeys.objectType)
        callback = try json.decodeIfPresent(CodingKeys.callback)
        durationUs = try json.decode(CodingKeys.durationUs)
        count = try json.decode(CodingKeys.count)
    }
}
