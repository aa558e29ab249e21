/// Timer-source accounting in a process (schema 1.3; nil when the timer hook family was off).
public struct SummaryTimers: Codable, Sendable, Equatable {
    public let created: UInt64
    public let destroyed: UInt64
    public let live: UInt64
    public let fires: UInt64
    /// Sources LoopHunter could not track.
    public let untracked: UInt64
    public let timerfdSettime: UInt64
    public let timerSettime: UInt64
    /// Sources whose user data was freed while they were live.
    public let outlived: UInt64

    enum CodingKeys: String, CodingKey {
        case created, destroyed, live, fires, untracked
        case timerfdSettime = "timerfd_settime"
        case timerSettime = "timer_settime"
        case outlived
    }
}
