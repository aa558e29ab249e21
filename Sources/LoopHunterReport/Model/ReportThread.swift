/// The thread a breach happened on, and where its event loop was.
public struct ReportThread: Codable, Sendable, Equatable {
    public let tid: Int
    /// The kernel's thread name (15 bytes at most), e.g. `ui-worker`.
    public let name: String
    /// Iterations of this thread's event loop so far.
    public let iteration: UInt64
    /// Iterations of this thread that laid something out.
    public let layoutIteration: UInt64
    /// The toolkit frame (GTK's frame clock), when frames drive the thread's layout (schema 1.1).
    public let frame: UInt64?

    enum CodingKeys: String, CodingKey {
        case tid, name, iteration
        case layoutIteration = "layout_iteration"
        case frame
    }
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension ReportThread: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        tid = try json.decode(CodingKeys.tid)
        name = try json.decode(CodingKeys.name)
        iteration = try json.decode(CodingKeys.iteration)
        layoutIteration = try json.decode(CodingKeys.layoutIteration)
        frame = try json.decodeIfPresent(CodingKeys.frame)
    }
}
