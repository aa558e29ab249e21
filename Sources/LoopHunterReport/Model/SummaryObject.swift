/// One of the objects laid out most in a process: its address, type, hook and calls over the run.
public struct SummaryObject: Codable, Sendable, Equatable {
    public let address: String
    public let type: String?
    public let hook: String?
    public let calls: UInt64
    /// Schema 1.5: the object was destroyed before the summary was written (its figures were kept
    /// when its toolkit finalized it: at most 32 such objects, the most laid out); nil in older files.
    public let destroyed: Bool?
}
