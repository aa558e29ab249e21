/// What a `slow-window` report adds (schema 1.3): a toplevel window's time to its first frame and
/// the slowest steps on the way.
public struct ReportWindow: Codable, Sendable, Equatable {
    /// GTK: the window's title when set; toykit: nil.
    public let title: String?
    /// `creation` (GTK: g_object_new of the window) or `map` (toykit: tk_loop_add_root).
    public let since: String
    /// When the window was created (or mapped), in µs since LoopHunter started in the process.
    public let createdUs: UInt64
    /// When its first frame was painted; nil when it never was.
    public let firstFrameUs: UInt64?
    /// Time to first frame, or, when it never painted, the time it waited so far.
    public let timeToFirstFrameMs: UInt64
    public let painted: Bool
    /// Slowest first, at most 8.
    public let slowest: [WindowStep]

    enum CodingKeys: String, CodingKey {
        case title, since
        case createdUs = "created_us"
        case firstFrameUs = "first_frame_us"
        case timeToFirstFrameMs = "time_to_first_frame_ms"
        case painted, slowest
    }
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension ReportWindow: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        title = try json.decodeIfPresent(CodingKeys.title)
        since = try json.decode(CodingKeys.since)
        createdUs = try json.decode(CodingKeys.createdUs)
        firstFrameUs = try json.decodeIfPresent(CodingKeys.firstFrameUs)
        timeToFirstFrameMs = try json.decode(CodingKeys.timeToFirstFrameMs)
        painted = try json.decode(CodingKeys.painted)
        slowest = try json.decode(CodingKeys.slowest)
    }
}
