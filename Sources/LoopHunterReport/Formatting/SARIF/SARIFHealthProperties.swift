/// The event-loop health side of a result's property bag (schema 1.3 findings): the
/// representative report's `stall`, `window` or `timer` section, keys in camelCase as in the rest
/// of the bag, callbacks by name.
struct SARIFHealthProperties: Codable, Sendable, Equatable {
    /// stall: how long, whether it was still going, how the stack was taken.
    var stallDurationMs: UInt64? = nil
    var stallOngoing: Bool? = nil
    var stallSampledAfterMs: UInt64? = nil
    /// `signal`, `scan` or `none`.
    var stallMethod: String? = nil
    var stallSyscall: String? = nil
    /// The innermost frame of the stack the thread was stuck in.
    var stuckFrame: String? = nil
    /// slow-window.
    var windowTitle: String? = nil
    var windowSince: String? = nil
    var timeToFirstFrameMs: UInt64? = nil
    var painted: Bool? = nil
    /// `realize on GtkWindow 2.10 s ×1`, slowest first.
    var slowestSteps: [String]? = nil
    /// Timer kinds.
    var timerSource: String? = nil
    var timerCallback: String? = nil
    var timerData: String? = nil
    var timerIntervalMs: Int64? = nil
    var timerFires: UInt64? = nil
    var liveSources: UInt64? = nil
    /// `growth` or `fires`.
    var stormReason: String? = nil
    var stormIterations: UInt64? = nil
    var stormStartLive: UInt64? = nil
    var stormFiresInIteration: UInt64? = nil
    var stormFiresInARow: UInt64? = nil
    var freedDuringDispatch: Bool? = nil

    /// Nil for the other kinds.
    init?(_ f: Finding) {
        switch f.detail {
        case .stall(let s):
            stallDurationMs = s.durationMs
            stallOngoing = s.ongoing
            stallSampledAfterMs = s.sampledAfterMs
            stallMethod = s.method
            stallSyscall = s.syscall
            stuckFrame = f.stack.first.map { FindingText.location($0) ?? $0.displayName }
        case .window(let w, let steps):
            windowTitle = w.title
            windowSince = w.since
            timeToFirstFrameMs = w.timeToFirstFrameMs
            painted = w.painted
            slowestSteps = steps.map { "\($0.label) \(FindingText.micros($0.durationUs)) ×\($0.count)" }
        case .timer(let t, let callback, _):
            timerSource = t.source
            timerCallback = callback?.displayName
            timerData = t.data
            timerIntervalMs = t.intervalMs
            timerFires = t.fires
            liveSources = t.liveSources
            stormReason = t.storm?.reason
            stormIterations = t.storm?.iterations
            stormStartLive = t.storm?.startLive
            stormFiresInIteration = t.storm?.firesInIteration
            stormFiresInARow = t.storm?.firesInARow
            freedDuringDispatch = t.freedDuringDispatch
        case .none, .streak, .warning:
            return nil
        }
    }
}
