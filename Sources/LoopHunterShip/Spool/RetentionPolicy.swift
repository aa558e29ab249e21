/// How much the spool keeps of what is finished. Pending reports are never removed: they are the
/// ones still owed to the collector (the preload's own caps bound how many a process writes).
public struct RetentionPolicy: Sendable, Equatable {
    public var sent: RetentionCaps
    public var rejected: RetentionCaps

    /// Delivered reports: 10,000 of them, 256 MiB, 30 days.
    public static let defaultSent = RetentionCaps(count: 10_000, bytes: 256 << 20, age: 30 * 86_400)
    /// Refused or unusable reports, kept for a person to look at: 1,000, 64 MiB, 30 days.
    public static let defaultRejected = RetentionCaps(count: 1_000, bytes: 64 << 20, age: 30 * 86_400)

    public init(sent: RetentionCaps = defaultSent, rejected: RetentionCaps = defaultRejected) {
        self.sent = sent
        self.rejected = rejected
    }
}
