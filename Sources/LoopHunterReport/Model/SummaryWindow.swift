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
    public let timeToFirstFrameMs: UInt64
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
