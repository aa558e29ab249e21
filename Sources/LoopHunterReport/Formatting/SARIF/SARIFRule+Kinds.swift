/// The rules LoopHunter knows: what each kind of finding means and how to fix it.
extension SARIFRule {
    /// The rule for `kind`; a kind this build does not know gets a generic description.
    init(kind: String) {
        if let health = SARIFRule(healthKind: kind) {
            self = health
            return
        }
        let level = Severity.of(kind: kind).rawValue
        let properties = SARIFRuleProperties(tags: ["performance", "layout", "ui"], precision: "high")
        let memory = SARIFRuleProperties(tags: ["performance", "memory", "ui"], precision: "high")
        switch kind {
        case "layout-storm":
            self.init(
                id: kind, name: "LayoutStorm",
                shortDescription: SARIFMessage(text: "A view is laid out over and over within one event-loop iteration: a layout feedback loop."),
                fullDescription: SARIFMessage(text: "An object was laid out more times in a single iteration of its thread's event loop "
                    + "than the threshold (LOOPHUNTER_THRESHOLD, 100 by default) allows. A toolkit that lays out until the view tree "
                    + "is clean loops inside one pass when a layout keeps invalidating itself or its parent: the CPU is pinned and "
                    + "the window stops responding."),
                help: SARIFMessage(text: """
                    What it means: the view named in the result was laid out more often in one event-loop iteration than any \
                    settled layout needs. The other views of the same loop are listed with it, and the location is the first \
                    frame of your code on the stack when the threshold was crossed.

                    How to fix: make layout idempotent. From a layout callback, change nothing that invalidates layout again: \
                    not the size, constraints, text or children of the view itself, its parent or its siblings. Set a size or \
                    a text only when the value really changes, compute sizes from inputs that layout does not change, and move \
                    state changes out of layout (into an event or idle handler). Then run the program under LoopHunter again.
                    """),
                defaultConfiguration: SARIFReportingConfiguration(level: level), properties: properties)
        case "layout-streak":
            self.init(
                id: kind, name: "LayoutStreak",
                shortDescription: SARIFMessage(text: "A view is relaid out in every frame, many frames in a row: a layout feedback loop spread over frames."),
                fullDescription: SARIFMessage(text: "An object was hot (laid out more than once in an iteration, or resized) in more "
                    + "back-to-back layout iterations of its thread than LOOPHUNTER_STREAK (60 by default) allows. A toolkit that "
                    + "caps layout passes per frame (GTK: at most 4) turns a layout feedback loop into this: the layout never "
                    + "settles, every frame relays out the same views, and the program burns CPU, often flickering or oscillating "
                    + "between two sizes, while it looks idle."),
                help: SARIFMessage(text: """
                    What it means: the view named in the result was relaid out (more than once per frame, or at a new size) in \
                    frame after frame, with no pause in between. The location is the first frame of your code on the stack of \
                    the last hot layout.

                    How to fix: find what requests a new layout from inside layout or size allocation: a resize request, or a \
                    size or text change of the view or its parent made from a size-allocate or layout handler, or two views \
                    whose sizes depend on each other (an oscillation between two sizes). Request a resize only when the size \
                    really changes, break the dependency between the view and its parent, and move such updates out of the \
                    layout pass. Then run the program under LoopHunter again.
                    """),
                defaultConfiguration: SARIFReportingConfiguration(level: level), properties: properties)
        case "toolkit-warning":
            self.init(
                id: kind, name: "ToolkitWarning",
                shortDescription: SARIFMessage(text: "The toolkit itself warned about layout."),
                fullDescription: SARIFMessage(text: "GTK or GDK logged a warning about layout (\"layout continuously "
                    + "requested\", a widget reporting a natural size below its minimum, an allocation with a negative "
                    + "size, a snapshot without an allocation). LoopHunter keeps one report per message and stack; the "
                    + "program still printed the warning as before."),
                help: SARIFMessage(text: """
                    What it means: the toolkit detected something wrong with a layout and said so in its log. The message \
                    names the widget when it can. The location is the first frame of your code on the stack that logged it.
                    How to fix it: read the message. "layout continuously requested" is GTK's own sign of a layout feedback \
                    loop (see the layout-streak finding of the same run); the size messages point at a widget whose measure \
                    or size_allocate returns inconsistent sizes.
                    """),
                defaultConfiguration: SARIFReportingConfiguration(level: level), properties: properties)
        case "alloc-storm":
            self.init(
                id: kind, name: "AllocStorm",
                shortDescription: SARIFMessage(text: "One event-loop iteration allocated more memory than any UI update needs."),
                fullDescription: SARIFMessage(text: "A thread allocated more bytes (LOOPHUNTER_ALLOC_BYTES, 64 MiB by default) "
                    + "or made more allocations (LOOPHUNTER_ALLOC_CALLS, 1,000,000 by default) in a single iteration of its "
                    + "event loop than the limit allows. Bytes are malloc_usable_size bytes. The report names the view whose "
                    + "layout was running when the limit was crossed (or says that none was) and what that view's layouts "
                    + "allocated over the run. Churn this large stalls the UI in the allocator and, with fragmentation or "
                    + "a leak, ends in an out-of-memory kill."),
                help: SARIFMessage(text: """
                    What it means: the code at the result's location (the first frame of your code on the stack of the                     allocation that crossed the limit) allocated that much within one iteration, typically in a layout                     callback that rebuilds a cache, a list of rows or an image every time it runs. The memory facts say                     what the view's layouts allocated over the run and which views' layouts allocated most.

                    How to fix: allocate when the data changes, not when the view is laid out: keep caches across                     layouts and invalidate them only when their inputs change, reuse buffers, and create rows lazily for                     what is visible. Then run the program under LoopHunter again.
                    """),
                defaultConfiguration: SARIFReportingConfiguration(level: level), properties: memory)
        case "heap-growth":
            self.init(
                id: kind, name: "HeapGrowth",
                shortDescription: SARIFMessage(text: "The process's live heap grew in iteration after iteration: the shape of a leak."),
                fullDescription: SARIFMessage(text: "The live heap (malloc_usable_size bytes allocated minus freed, counted "
                    + "since LoopHunter started) grew in LOOPHUNTER_GROWTH_ITERATIONS (60 by default) event-loop iterations "
                    + "in a row, by more than LOOPHUNTER_GROWTH_BYTES (64 MiB by default) in all. Memory that only grows "
                    + "while the program does the same thing over and over is a leak: it ends in an out-of-memory kill. "
                    + "The report lists the views whose layouts allocated most over the run."),
                help: SARIFMessage(text: """
                    What it means: the heap grew without shrinking for many iterations. The stack is only where the event                     loop noticed; the top allocators (the views whose layouts allocated most) point at the code that                     allocates. A legitimate build-up (a document loading, a cache filling to its bound) can look the same:                     check whether the growth stops.

                    How to fix: find what the top allocator's layout allocates and never frees (a cache replaced without                     freeing the old one, objects appended to a list on every layout) and free it, or bound the cache.                     A heap profiler run on the same scenario shows the allocation sites. Then run the program under                     LoopHunter again.
                    """),
                defaultConfiguration: SARIFReportingConfiguration(level: level),
                properties: SARIFRuleProperties(tags: ["memory", "reliability"], precision: "medium"))
        default:
            self.init(
                id: kind, name: Self.ruleName(kind),
                shortDescription: SARIFMessage(text: "LoopHunter reported \(kind)."),
                fullDescription: SARIFMessage(text: "LoopHunter reported \(kind); this version of the reporter has no description of this kind."),
                help: SARIFMessage(text: "See the result's message and stack, and the documentation of the LoopHunter release that wrote the report."),
                defaultConfiguration: SARIFReportingConfiguration(level: level), properties: properties)
        }
    }

    /// `layout-storm` → `LayoutStorm`
    static func ruleName(_ kind: String) -> String {
        let words = kind.split { !$0.isLetter && !$0.isNumber }
        let name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return name.isEmpty ? "Finding" : name
    }
}
