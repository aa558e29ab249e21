/// One toplevel window seen in a process, with its time to first frame (schema 1.3).
public struct SummaryWindow: Codable, Sendable, Equatable {
    public let type: String
    public let name: String?
    public let title: String?
    /// `creation` or `map` (see ``ReportWindow/since``).
    public let since: String
    public let createdUs: UInt64
    /// Nil when it never painted.
    public let firstFrameUs: UInt64?
    /// Painted: its time to first frame. Never painted: how long it waited (schema 1.5); the 1.3
    /// and 1.4 preloads wrote null there.
    public let timeToFirstFrameMs: UInt64?
    public let painted: Bool
    /// At most 3, slowest first.
    public let slowest: [WindowStep]

    enum CodingKeys: String, CodingKey {
        case type, name, title, since
        case createdUs = "created_us"
        case firstFrameUs = "first_frame_us"
        case timeToFirstFrameMs = "time_to_first_frame_ms"
        case painted, slowest
    }
}
