/// GTK support in a process: which GTK, whether its layouts were counted, what was patched.
public struct SummaryGTK: Codable, Sendable, Equatable {
    public let version: String
    /// `on`, or `off` with the reason (a GTK whose class layout this LoopHunter does not know).
    public let counting: String
    public let offReason: String?
    public let classesPatched: UInt64
    public let slotsPatched: UInt64
    public let wrapperPoolExhausted: UInt64
    public let frameClocks: UInt64
    public let sweeps: UInt64
    public let widgetsForgotten: UInt64

    enum CodingKeys: String, CodingKey {
        case version, counting
        case offReason = "off_reason"
        case classesPatched = "classes_patched"
        case slotsPatched = "slots_patched"
        case wrapperPoolExhausted = "wrapper_pool_exhausted"
        case frameClocks = "frame_clocks"
        case sweeps
        case widgetsForgotten = "widgets_forgotten"
    }
}
