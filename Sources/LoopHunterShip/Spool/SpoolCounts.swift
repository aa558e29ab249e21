/// How many reports each state of a spool holds.
public struct SpoolCounts: Sendable, Equatable {
    public var pending = 0
    /// In the in-flight directories of every shipper, running or dead.
    public var inFlight = 0
    public var sent = 0
    public var rejected = 0

    public init() {}
}
