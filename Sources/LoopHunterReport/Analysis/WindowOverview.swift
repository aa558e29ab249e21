/// One toplevel window of a process summary (schema 1.3), for the time-to-first-frame table.
public struct WindowOverview: Sendable, Codable, Equatable {
    public let type: String
    public let name: String?
    public let title: String?
    /// `creation` or `map`.
    public let since: String
    /// Nil when the window never painted.
    public let timeToFirstFrameMs: UInt64?
    /// How long it waited without a frame, when it never painted.
    public let waitedMs: UInt64?
    /// The slowest step on the way (``SymbolizedStep/label``), with its longest duration in µs.
    public let slowestStep: String?
    public let slowestStepUs: UInt64?

    public init(_ w: SummaryWindow, callbackName: (Frame) -> String) {
        type = w.type
        name = w.name
        title = w.title
        since = w.since
        timeToFirstFrameMs = w.painted ? w.timeToFirstFrameMs ?? 0 : nil
        waitedMs = w.timeToFirstFrameMs
        slowestStep = w.slowest.first.map { step in
            step.callback.map { "\(callbackName($0)) (\(step.signal))" } ?? "\(step.signal) on \(step.objectType)"
        }
        slowestStepUs = w.slowest.first?.durationUs
    }

    /// `GtkWindow 'main'`
    public var label: String { ObjectRef(type: type, name: name, path: "").label }
}
