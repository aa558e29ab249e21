/// What the timer kinds (`timer-storm`, `timer-outlives-target`, schema 1.3) add: the source, its
/// callback and user data, and how it fired.
public struct ReportTimer: Codable, Sendable, Equatable {
    /// The API the source came from (as `hook.name`), e.g. `g_timeout_add`.
    public let source: String
    /// The callback, a frame object like those of `frames` whose `offset` is a function's ENTRY
    /// address: symbolize it at `offset` exactly, not `offset - 1`. Nil when unknown.
    public let callback: Frame?
    /// The user data pointer, `0x...`.
    public let data: String
    /// Nil for idle sources.
    public let intervalMs: Int64?
    /// When the source was created, in µs since LoopHunter started in the process.
    public let createdUs: UInt64
    /// Times the callback ran so far.
    public let fires: UInt64
    /// Tracked live timer sources in the process when reported.
    public let liveSources: UInt64
    /// `timer-storm` only.
    public let storm: TimerStorm?
    /// `timer-outlives-target` only: true when its own callback freed the data and then kept the
    /// source (returned TRUE).
    public let freedDuringDispatch: Bool?

    enum CodingKeys: String, CodingKey {
        case source, callback, data
        case intervalMs = "interval_ms"
        case createdUs = "created_us"
        case fires
        case liveSources = "live_sources"
        case storm
        case freedDuringDispatch = "freed_during_dispatch"
    }
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension ReportTimer: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        source = try json.decode(CodingKeys.source)
        callback = try json.decodeIfPresent(CodingKeys.callback)
        data = try json.decode(CodingKeys.data)
        intervalMs = try json.decodeIfPresent(CodingKeys.intervalMs)
        createdUs = try json.decode(CodingKeys.createdUs)
        fires = try json.decode(CodingKeys.fires)
        liveSources = try json.decode(CodingKeys.liveSources)
        storm = try json.decodeIfPresent(CodingKeys.storm)
        freedDuringDispatch = try json.decodeIfPresent(CodingKeys.freedDuringDispatch)
    }
}
