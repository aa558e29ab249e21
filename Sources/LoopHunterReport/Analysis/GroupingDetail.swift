/// A part of a report that tells its group apart from others of the same kind, hook, object type
/// and code (see ``ReportGrouping/details``).
public enum GroupingDetail: Sendable, Hashable {
    /// A toolkit warning's format (its message when it has none): the text varies, the format
    /// does not.
    case warningFormat
    /// The type and hook of the top allocator (whose layouts allocated most).
    case topAllocator
    /// A timer's callback: its function name once symbolized, else module and offset.
    case timerCallback
}
