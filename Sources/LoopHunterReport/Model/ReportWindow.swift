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
