/// The part of a finding that only findings of some kinds have: the representative report's
/// section of its kind, with the code it names symbolized. One value, so a finding has at most
/// one such section.
///
/// In the JSON format each case is written as the fields a finding had before there was this
/// type (`streak`, `warning`, `stall`, `window` with `slowestSteps`, `timer` with `timerCallback`
/// and `createdStack`), absent when the finding has no such section.
public enum FindingDetail: Sendable, Equatable {
    /// Nothing besides what every finding has (`layout-storm`, `alloc-storm`, `heap-growth`: the
    /// memory side is ``Finding/alloc``, which any kind may have).
    case none
    /// `layout-streak`: the last hot iteration and the object's size before and after.
    case streak(StreakDetail)
    /// `toolkit-warning` (schema 1.1): the toolkit's message.
    case warning(ToolkitWarning)
    /// `stall` (schema 1.3): how long, how the stack was taken.
    case stall(ReportStall)
    /// `slow-window` (schema 1.3): the window section, and its slowest steps with their callbacks
    /// named.
    case window(ReportWindow, slowestSteps: [SymbolizedStep])
    /// The timer kinds (schema 1.3): the timer section; its callback, named at its entry
    /// address; for `timer-outlives-target`, where the source was created, symbolized, innermost
    /// first (the finding's stack is where its target was freed).
    case timer(ReportTimer, callback: SymbolizedFrame?, createdStack: [SymbolizedFrame]?)
}
