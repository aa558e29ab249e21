/// The SARIF rules of the kinds: what each kind of finding means and how to fix it.
extension ReportKind {
    /// The rule of the kind, as the SARIF format states it; a kind this build does not know gets a
    /// generic description under its raw value.
    public var rule: ReportKindRule {
        let layout = ["performance", "layout", "ui"]
        let memory = ["performance", "memory", "ui"]
        let responsiveness = ["performance", "responsiveness", "ui"]
        switch self {
        case .layoutStorm:
            return ReportKindRule(
                id: rawValue, name: "LayoutStorm",
                shortDescription: "A view is laid out over and over within one event-loop iteration: a layout feedback loop.",
                fullDescription: "An object was laid out more times in a single iteration of its thread's event loop "
                    + "than the threshold (LOOPHUNTER_THRESHOLD, 100 by default) allows. A toolkit that lays out until the view tree "
                    + "is clean loops inside one pass when a layout keeps invalidating itself or its parent: the CPU is pinned and "
                    + "the window stops responding.",
                help: """
                    What it means: the view named in the result was laid out more often in one event-loop iteration than any \
                    settled layout needs. The other views of the same loop are listed with it, and the location is the first \
                    frame of your code on the stack when the threshold was crossed.

                    How to fix: make layout idempotent. From a layout callback, change nothing that invalidates layout again: \
                    not the size, constraints, text or children of the view itself, its parent or its siblings. Set a size or \
                    a text only when the value really changes, compute sizes from inputs that layout does not change, and move \
                    state changes out of layout (into an event or idle handler). Then run the program under LoopHunter again.
                    """,
                tags: layout, precision: "high")
        case .layoutStreak:
            return ReportKindRule(
                id: rawValue, name: "LayoutStreak",
                shortDescription: "A view is relaid out in every frame, many frames in a row: a layout feedback loop spread over frames.",
                fullDescription: "An object was hot (laid out more than once in an iteration, or resized) in more "
                    + "back-to-back layout iterations of its thread than LOOPHUNTER_STREAK (60 by default) allows. A toolkit that "
                    + "caps layout passes per frame (GTK: at most 4) turns a layout feedback loop into this: the layout never "
                    + "settles, every frame relays out the same views, and the program burns CPU, often flickering or oscillating "
                    + "between two sizes, while it looks idle.",
                help: """
                    What it means: the view named in the result was relaid out (more than once per frame, or at a new size) in \
                    frame after frame, with no pause in between. The location is the first frame of your code on the stack of \
                    the last hot layout.

                    How to fix: find what requests a new layout from inside layout or size allocation: a resize request, or a \
                    size or text change of the view or its parent made from a size-allocate or layout handler, or two views \
                    whose sizes depend on each other (an oscillation between two sizes). Request a resize only when the size \
                    really changes, break the dependency between the view and its parent, and move such updates out of the \
                    layout pass. Then run the program under LoopHunter again.
                    """,
                tags: layout, precision: "high")
        case .layoutLoop:
            return ReportKindRule(
                id: rawValue, name: "LayoutLoop",
                shortDescription: "A view is relaid out in frame after frame because layout itself keeps requesting it: a layout feedback loop.",
                fullDescription: "A widget (or a set of widgets) was relaid out, in more back-to-back frames of its window's "
                    + "frame clock than LOOPHUNTER_LOOP_FRAMES (30 by default) allows, by layout requests that the layout itself "
                    + "caused: made while layout ran (in layout), by a callback that layout added (deferred), or by code that "
                    + "read the widget's size and re-requested it, the size then going back and forth (result). Requests from "
                    + "input, timers and animations never count. The program burns CPU while it looks idle, whether or not any "
                    + "size changes.",
                help: """
                    What it means: the report's cause names the kind, the widget requested and the stack of the request that \
                    closed the loop (the location is the first frame of your code on it); for a deferred cause, the callbacks \
                    that carried the request from layout and where each was added.

                    How to fix: make the code at the location request layout only when something really changed: set a text \
                    or size only when it differs, do not re-queue a resize from a size-allocate, resize or layout handler or \
                    from an idle it adds, and do not pick a text or size from the widget's own allocation. Then run the program \
                    under LoopHunter again.
                    """,
                tags: layout, precision: "high")
        case .toolkitWarning:
            return ReportKindRule(
                id: rawValue, name: "ToolkitWarning",
                shortDescription: "The toolkit itself warned about layout.",
                fullDescription: "GTK or GDK logged a warning about layout (\"layout continuously "
                    + "requested\", a widget reporting a natural size below its minimum, an allocation with a negative "
                    + "size, a snapshot without an allocation). LoopHunter keeps one report per message and stack; the "
                    + "program still printed the warning as before.",
                help: """
                    What it means: the toolkit detected something wrong with a layout and said so in its log. The message \
                    names the widget when it can. The location is the first frame of your code on the stack that logged it.
                    How to fix it: read the message. "layout continuously requested" is GTK's own sign of a layout feedback \
                    loop (see the layout-streak finding of the same run); the size messages point at a widget whose measure \
                    or size_allocate returns inconsistent sizes.
                    """,
                tags: layout, precision: "high")
        case .allocStorm:
            return ReportKindRule(
                id: rawValue, name: "AllocStorm",
                shortDescription: "One event-loop iteration allocated more memory than any UI update needs.",
                fullDescription: "A thread allocated more bytes (LOOPHUNTER_ALLOC_BYTES, 64 MiB by default) "
                    + "or made more allocations (LOOPHUNTER_ALLOC_CALLS, 1,000,000 by default) in a single iteration of its "
                    + "event loop than the limit allows. Bytes are malloc_usable_size bytes. The report names the view whose "
                    + "layout was running when the limit was crossed (or says that none was) and what that view's layouts "
                    + "allocated over the run. Churn this large stalls the UI in the allocator and, with fragmentation or "
                    + "a leak, ends in an out-of-memory kill.",
                help: """
                    What it means: the code at the result's location (the first frame of your code on the stack of the                     allocation that crossed the limit) allocated that much within one iteration, typically in a layout                     callback that rebuilds a cache, a list of rows or an image every time it runs. The memory facts say                     what the view's layouts allocated over the run and which views' layouts allocated most.

                    How to fix: allocate when the data changes, not when the view is laid out: keep caches across                     layouts and invalidate them only when their inputs change, reuse buffers, and create rows lazily for                     what is visible. Then run the program under LoopHunter again.
                    """,
                tags: memory, precision: "high")
        case .heapGrowth:
            return ReportKindRule(
                id: rawValue, name: "HeapGrowth",
                shortDescription: "The process's live heap grew in iteration after iteration: the shape of a leak.",
                fullDescription: "The live heap (malloc_usable_size bytes allocated minus freed, counted "
                    + "since LoopHunter started) grew in LOOPHUNTER_GROWTH_ITERATIONS (60 by default) event-loop iterations "
                    + "in a row, by more than LOOPHUNTER_GROWTH_BYTES (64 MiB by default) in all. Memory that only grows "
                    + "while the program does the same thing over and over is a leak: it ends in an out-of-memory kill. "
                    + "The report lists the views whose layouts allocated most over the run.",
                help: """
                    What it means: the heap grew without shrinking for many iterations. The stack is only where the event                     loop noticed; the top allocators (the views whose layouts allocated most) point at the code that                     allocates. A legitimate build-up (a document loading, a cache filling to its bound) can look the same:                     check whether the growth stops.

                    How to fix: find what the top allocator's layout allocates and never frees (a cache replaced without                     freeing the old one, objects appended to a list on every layout) and free it, or bound the cache.                     A heap profiler run on the same scenario shows the allocation sites. Then run the program under                     LoopHunter again.
                    """,
                tags: ["memory", "reliability"], precision: "medium")
        case .stall:
            return ReportKindRule(
                id: rawValue, name: "EventLoopStall",
                shortDescription: "One event-loop iteration ran so long that the UI froze.",
                fullDescription: "An iteration of a thread's event loop ran longer than LOOPHUNTER_STALL_MS "
                    + "(2000 ms by default): for that long the thread drew nothing and answered no input. The stack is "
                    + "where the thread was stuck, sampled while it was stuck by a watchdog (by signal on the thread, or, "
                    + "when it was blocked in a system call, by a scan from outside whose top frame is exact).",
                help: """
                    What it means: the code at the result's location (the first frame of your code on the stuck stack) \
                    kept the event loop from running: a long computation, a blocking read, a sleep or a wait on a lock in \
                    a handler. The stuck frame and the system call say which.

                    How to fix: do not block the UI thread. Move long work to a worker thread or split it into idle \
                    steps, use asynchronous I/O, and never sleep or wait in a handler. Then run the program under \
                    LoopHunter again.
                    """,
                tags: responsiveness, precision: "high")
        case .slowWindow:
            return ReportKindRule(
                id: rawValue, name: "SlowWindow",
                shortDescription: "A window took too long to show its first frame.",
                fullDescription: "A toplevel window took longer than LOOPHUNTER_WINDOW_MS (2000 ms by "
                    + "default) from its creation (GTK) or mapping (toykit) to its first painted frame, or never painted. "
                    + "The report lists the slowest steps on the way: signal handlers per signal and object type (GTK), "
                    + "dispatched callbacks (toykit).",
                help: """
                    What it means: the user waited that long for the window. The slowest steps name the handlers that \
                    took the time; the location is the first frame of your code where the window was created.

                    How to fix: show the window first and fill it afterwards: build expensive content lazily or in an \
                    idle callback, load data asynchronously, and keep realize, map and size handlers cheap. Then run the \
                    program under LoopHunter again.
                    """,
                tags: responsiveness, precision: "high")
        case .timerStorm:
            return ReportKindRule(
                id: rawValue, name: "TimerStorm",
                shortDescription: "Timer sources pile up, or one callback fires too often.",
                fullDescription: "Timer or idle sources were created faster than they were destroyed "
                    + "(the live count grew for LOOPHUNTER_TIMER_ITERATIONS iterations in a row, by more than "
                    + "LOOPHUNTER_TIMER_LIVE), or one callback fired more than LOOPHUNTER_TIMER_FIRES times in one "
                    + "iteration. Either keeps the loop busy for nothing and grows without bound.",
                help: """
                    What it means: the code at the result's location (where the source was created) adds a timer or \
                    idle source again and again without removing the previous one, or a callback keeps re-arming itself.

                    How to fix: keep the source id and remove the old source before adding a new one (or reuse it), \
                    return FALSE (G_SOURCE_REMOVE) from callbacks that are done, and coalesce updates. Then run the \
                    program under LoopHunter again.
                    """,
                tags: ["performance", "reliability", "ui"], precision: "medium")
        case .timerOutlivesTarget:
            return ReportKindRule(
                id: rawValue, name: "TimerOutlivesTarget",
                shortDescription: "A timer source outlives its user data: its callback will run on freed memory.",
                fullDescription: "The user data pointer of a live timer or idle source was passed to "
                    + "free() while the source was still attached. The next time the source fires, its callback gets a "
                    + "dangling pointer: a use after free. The report has both stacks: where the target was freed and "
                    + "where the source was created. LoopHunter only reports; the program runs on as before.",
                help: """
                    What it means: the object the timer works on was freed, but the timer was not removed. The location \
                    is the first frame of your code on the stack that freed it.

                    How to fix: remove the source (g_source_remove with the id the add call returned) before freeing its \
                    data, or let the source own the data (g_timeout_add_full with a destroy notify), or return FALSE \
                    from the callback that frees it. Then run the program under LoopHunter again.
                    """,
                tags: ["security", "reliability", "memory"], precision: "high")
        case .other(let kind):
            return ReportKindRule(
                id: kind, name: Self.ruleName(kind),
                shortDescription: "LoopHunter reported \(kind).",
                fullDescription: "LoopHunter reported \(kind); this version of the reporter has no description of this kind.",
                help: "See the result's message and stack, and the documentation of the LoopHunter release that wrote the report.",
                tags: layout, precision: "high")
        }
    }

    /// `layout-storm` → `LayoutStorm`
    static func ruleName(_ kind: String) -> String {
        let words = kind.split { !$0.isLetter && !$0.isNumber }
        let name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return name.isEmpty ? "Finding" : name
    }
}
