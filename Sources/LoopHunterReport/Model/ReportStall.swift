/// What a `stall` report adds (schema 1.3): how long the event-loop iteration ran and how the
/// stack of where the thread was stuck (the report's `frames`) was taken.
public struct ReportStall: Codable, Sendable, Equatable {
    /// The iteration's duration: in total when `ongoing` is false, so far when true (as `count`).
    public let durationMs: UInt64
    /// True when the report was written while the thread was still stuck (it had not returned to
    /// its loop 5 × LOOPHUNTER_STALL_MS after the iteration began, or the process exited first).
    public let ongoing: Bool
    /// When the stack was sampled, since the iteration began; nil when no stack could be taken.
    public let sampledAfterMs: UInt64?
    /// `signal` (unwound on the thread itself), `scan` (read from outside by a return-address
    /// scan while the thread was blocked in a system call: the top frame is exact, the others
    /// likely but possibly stale) or `none` (no stack: `frames` is empty).
    public let method: String
    /// The system call the thread was blocked in when sampled; nil when it was running.
    public let syscall: String?
    /// How many times it was sampled (the first sample is the one reported).
    public let samples: UInt64

    enum CodingKeys: String, CodingKey {
        case durationMs = "duration_ms"
        case ongoing
        case sampledAfterMs = "sampled_after_ms"
        case method, syscall, samples
    }
}

// The fast report path (see ``JSONTape``): the fields of the `Decodable` init, by the same keys.
extension ReportStall: JSONTapeDecodable {
    init(tape: JSONTapeValue) throws(JSONTapeMismatch) {
        let json = try tape.object()
        durationMs = try json.decode(CodingKeys.durationMs)
        ongoing = try json.decode(CodingKeys.ongoing)
        sampledAfterMs = try json.decodeIfPresent(CodingKeys.sampledAfterMs)
        method = try json.decode(CodingKeys.method)
        syscall = try json.decodeIfPresent(CodingKeys.syscall)
        samples = try json.decode(CodingKeys.samples)
    }
}
