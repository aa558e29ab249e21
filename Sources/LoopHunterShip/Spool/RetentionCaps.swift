/// Limits on the reports kept in one final state (sent or rejected). Past any of them the oldest
/// are removed first: from the spool and from the report directory.
public struct RetentionCaps: Sendable, Equatable {
    /// Reports kept at most.
    public var count: Int
    /// Bytes kept at most (report files, plus the collector's answers beside rejected ones).
    public var bytes: Int
    /// Seconds a report is kept at most after it entered the state.
    public var age: Double

    public init(count: Int, bytes: Int, age: Double) {
        self.count = count
        self.bytes = bytes
        self.age = age
    }
}
