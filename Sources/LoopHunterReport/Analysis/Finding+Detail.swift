/// The parts of a finding's ``Finding/detail``, each nil unless the detail is of its case.
extension Finding {
    /// `layout-streak`: the streak.
    public var streak: StreakDetail? {
        if case .streak(let streak) = detail { return streak }
        return nil
    }

    /// `toolkit-warning`: the toolkit's message.
    public var warning: ToolkitWarning? {
        if case .warning(let warning) = detail { return warning }
        return nil
    }

    /// `stall` (schema 1.3): the representative report's stall section.
    public var stall: ReportStall? {
        if case .stall(let stall) = detail { return stall }
        return nil
    }

    /// `slow-window` (schema 1.3): the representative report's window section.
    public var window: ReportWindow? {
        if case .window(let window, _) = detail { return window }
        return nil
    }

    /// `slow-window`: the window's slowest steps, with their callbacks named.
    public var slowestSteps: [SymbolizedStep]? {
        if case .window(_, let steps) = detail { return steps }
        return nil
    }

    /// Timer kinds (schema 1.3): the representative report's timer section.
    public var timer: ReportTimer? {
        if case .timer(let timer, _, _) = detail { return timer }
        return nil
    }

    /// Timer kinds: the timer's callback, named (symbolized at its entry address).
    public var timerCallback: SymbolizedFrame? {
        if case .timer(_, let callback, _) = detail { return callback }
        return nil
    }

    /// `timer-outlives-target`: where the source was created, symbolized, innermost first (the
    /// ``stack`` is where its target was freed).
    public var createdStack: [SymbolizedFrame]? {
        if case .timer(_, _, let created) = detail { return created }
        return nil
    }
}
