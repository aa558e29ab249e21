/// The rules of the event-loop health kinds (schema 1.3).
extension SARIFRule {
    /// The rule for `stall`, `slow-window`, `timer-storm` or `timer-outlives-target`; nil for other kinds.
    init?(healthKind kind: String) {
        let level = Severity.of(kind: kind).rawValue
        let responsiveness = SARIFRuleProperties(tags: ["performance", "responsiveness", "ui"], precision: "high")
        switch kind {
        case "stall":
            self.init(
                id: kind, name: "EventLoopStall",
                shortDescription: SARIFMessage(text: "One event-loop iteration ran so long that the UI froze."),
                fullDescription: SARIFMessage(text: "An iteration of a thread's event loop ran longer than LOOPHUNTER_STALL_MS "
                    + "(2000 ms by default): for that long the thread drew nothing and answered no input. The stack is "
                    + "where the thread was stuck, sampled while it was stuck by a watchdog (by signal on the thread, or, "
                    + "when it was blocked in a system call, by a scan from outside whose top frame is exact)."),
                help: SARIFMessage(text: """
                    What it means: the code at the result's location (the first frame of your code on the stuck stack) \
                    kept the event loop from running: a long computation, a blocking read, a sleep or a wait on a lock in \
                    a handler. The stuck frame and the system call say which.

                    How to fix: do not block the UI thread. Move long work to a worker thread or split it into idle \
                    steps, use asynchronous I/O, and never sleep or wait in a handler. Then run the program under \
                    LoopHunter again.
                    """),
                defaultConfiguration: SARIFReportingConfiguration(level: level), properties: responsiveness)
        case "slow-window":
            self.init(
                id: kind, name: "SlowWindow",
                shortDescription: SARIFMessage(text: "A window took too long to show its first frame."),
                fullDescription: SARIFMessage(text: "A toplevel window took longer than LOOPHUNTER_WINDOW_MS (2000 ms by "
                    + "default) from its creation (GTK) or mapping (toykit) to its first painted frame, or never painted. "
                    + "The report lists the slowest steps on the way: signal handlers per signal and object type (GTK), "
                    + "dispatched callbacks (toykit)."),
                help: SARIFMessage(text: """
                    What it means: the user waited that long for the window. The slowest steps name the handlers that \
                    took the time; the location is the first frame of your code where the window was created.

                    How to fix: show the window first and fill it afterwards: build expensive content lazily or in an \
                    idle callback, load data asynchronously, and keep realize, map and size handlers cheap. Then run the \
                    program under LoopHunter again.
                    """),
                defaultConfiguration: SARIFReportingConfiguration(level: level), properties: responsiveness)
        case "timer-storm":
            self.init(
                id: kind, name: "TimerStorm",
                shortDescription: SARIFMessage(text: "Timer sources pile up, or one callback fires too often."),
                fullDescription: SARIFMessage(text: "Timer or idle sources were created faster than they were destroyed "
                    + "(the live count grew for LOOPHUNTER_TIMER_ITERATIONS iterations in a row, by more than "
                    + "LOOPHUNTER_TIMER_LIVE), or one callback fired more than LOOPHUNTER_TIMER_FIRES times in one "
                    + "iteration. Either keeps the loop busy for nothing and grows without bound."),
                help: SARIFMessage(text: """
                    What it means: the code at the result's location (where the source was created) adds a timer or \
                    idle source again and again without removing the previous one, or a callback keeps re-arming itself.

                    How to fix: keep the source id and remove the old source before adding a new one (or reuse it), \
                    return FALSE (G_SOURCE_REMOVE) from callbacks that are done, and coalesce updates. Then run the \
                    program under LoopHunter again.
                    """),
                defaultConfiguration: SARIFReportingConfiguration(level: level),
                properties: SARIFRuleProperties(tags: ["performance", "reliability", "ui"], precision: "medium"))
        case "timer-outlives-target":
            self.init(
                id: kind, name: "TimerOutlivesTarget",
                shortDescription: SARIFMessage(text: "A timer source outlives its user data: its callback will run on freed memory."),
                fullDescription: SARIFMessage(text: "The user data pointer of a live timer or idle source was passed to "
                    + "free() while the source was still attached. The next time the source fires, its callback gets a "
                    + "dangling pointer: a use after free. The report has both stacks: where the target was freed and "
                    + "where the source was created. LoopHunter only reports; the program runs on as before."),
                help: SARIFMessage(text: """
                    What it means: the object the timer works on was freed, but the timer was not removed. The location \
                    is the first frame of your code on the stack that freed it.

                    How to fix: remove the source (g_source_remove with the id the add call returned) before freeing its \
                    data, or let the source own the data (g_timeout_add_full with a destroy notify), or return FALSE \
                    from the callback that frees it. Then run the program under LoopHunter again.
                    """),
                defaultConfiguration: SARIFReportingConfiguration(level: level),
                properties: SARIFRuleProperties(tags: ["security", "reliability", "memory"], precision: "high"))
        default:
            return nil
        }
    }
}
