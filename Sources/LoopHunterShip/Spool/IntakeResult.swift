/// What one pass over the report directory took into the spool.
public struct IntakeResult: Sendable, Equatable {
    /// Reports newly linked into `pending/`.
    public var added = 0
    /// Files with a report name that were not taken, each with the reason (a person reads these).
    public var ignored: [String] = []

    public init() {}
}
