/// One throttle entry: a fingerprint, how often it was reported and suppressed.
public struct SummaryFingerprint: Codable, Sendable, Equatable {
    public let fingerprint: String
    public let kind: String?
    public let type: String?
    public let reports: UInt64
    public let suppressed: UInt64
}
