/// The titles of findings: one line per finding, what every format puts at its head.
extension ReportKind {
    /// The object type of an `alloc-storm` that crossed its limit while no layout was running.
    static let noLayoutRunning = "(no layout running)"

    /// One line describing a finding of this kind from `report` (the group's peak), e.g.
    /// `StatusLabel 'status' laid out 101 times in one event-loop iteration (threshold 100)`,
    /// `event loop of thread 'toykit-demo' stuck 2500 ms in one iteration (limit 2000 ms), in slow_step`,
    /// `GtkWindow 'Preferences' took 2530 ms to its first frame (limit 2000 ms)`, ...
    /// `appCode`: the finding's app frame (``Finding/appFrame``), which a stall's title names
    /// (where the thread was stuck); `callback`: the timer's callback, which the timer kinds'
    /// titles name.
    func title(object: ObjectRef, report: Report, appCode: String? = nil, callback: String? = nil) -> String {
        switch self {
        case .layoutStorm:
            return "\(object.label) laid out \(report.count) times in one event-loop iteration (threshold \(report.threshold))"
        case .layoutStreak:
            var text = "\(object.label) relaid out in \(report.count) back-to-back frames (threshold \(report.threshold))"
            if let streak = report.streak {
                text += ", \(streak.lastIterationLayouts) layout\(streak.lastIterationLayouts == 1 ? "" : "s") in the last"
                if let before = streak.sizeBefore, let after = streak.sizeAfter, before != after {
                    text += ", size \(before.width)x\(before.height) -> \(after.width)x\(after.height)"
                }
            }
            return text
        case .layoutLoop:
            let cause = report.cause.map { "\($0.kind) " } ?? "layout-caused "
            return "\(object.label) relaid out by \(cause)requests in \(report.count) frames in a row "
                + "(threshold \(report.threshold))"
        case .toolkitWarning:
            // Without its warning (outside the schema), titled as an allocation storm: what the
            // `fallthrough` of the switch on strings this replaces did.
            guard let warning = report.warning else { return ReportKind.allocStorm.title(object: object, report: report) }
            return "\(warning.domain ?? "toolkit") \(warning.level): \(warning.message)"
        case .allocStorm:
            let byBytes = report.countUnit.hasPrefix("bytes")
            // The count is the thread's, in the iteration. The object is blamed for it only when its
            // own layouts allocated at least as much (``ReportAlloc/object``); else it is where the
            // limit was crossed, and the title says so rather than contradict the report's figures.
            if object.type != Self.noLayoutRunning, let own = report.alloc?.object,
               (byBytes ? own.bytes : own.calls) < report.count {
                if byBytes {
                    return "\(ByteCount(report.count)) allocated in one iteration during the layout of \(object.label) "
                        + "(limit \(ByteCount(report.threshold)))"
                }
                return "\(report.count) allocations in one iteration during the layout of \(object.label) (limit \(report.threshold))"
            }
            let who = object.type == Self.noLayoutRunning ? "code outside any layout" : object.label
            if byBytes {
                return "\(who) allocated \(ByteCount(report.count)) in one iteration (limit \(ByteCount(report.threshold)))"
            }
            return "\(who) made \(report.count) allocations in one iteration (limit \(report.threshold))"
        case .heapGrowth:
            var text = "the heap grew \(ByteCount(report.count))"
            if let growth = report.alloc?.growth {
                let unit = report.historyUnit ?? "iteration"
                text += " over \(growth.iterations) \(unit)\(growth.iterations == 1 ? "" : "s")"
            }
            text += " (limit \(ByteCount(report.threshold)))"
            if let top = report.alloc?.topAllocators.first {
                text += "; the layouts of \(ObjectRef(type: top.type ?? "?", name: top.name, path: "").label) "
                    + "allocated the most (\(ByteCount(top.bytes)))"
            }
            return text
        case .stall:
            let thread = report.object.name ?? report.thread.name
            let ongoing = report.stall?.ongoing == true
            var text = "event loop of thread '\(thread)' \(ongoing ? "still stuck after" : "stuck") \(report.count) ms "
                + "in one iteration (limit \(report.threshold) ms)"
            if let appCode { text += ", in \(appCode)" }
            return text
        case .slowWindow:
            let label = report.window?.title.map { "\(object.label) \"\($0)\"" } ?? object.label
            if report.window?.painted == false {
                return "\(label) never painted its first frame (waited \(report.count) ms, limit \(report.threshold) ms)"
            }
            return "\(label) took \(report.count) ms to its first frame (limit \(report.threshold) ms)"
        case .timerStorm:
            let calling = callback.map { " calling \($0)" } ?? ""
            if report.timer?.storm?.reason == "fires", report.timer?.storm?.firesInARow != nil {
                return "\(report.hook.name) source\(calling) fired \(report.count) times in a row, its loop never sleeping "
                    + "(limit \(report.threshold))"
            }
            if report.timer?.storm?.reason == "fires" {
                return "\(report.hook.name) source\(calling) fired \(report.count) times in one iteration (limit \(report.threshold))"
            }
            var text = "\(report.hook.name) sources\(calling) created faster than destroyed: \(report.count) added"
            if let iterations = report.timer?.storm?.iterations { text += " over \(iterations) iterations" }
            return text + " (limit \(report.threshold)), \(report.timer?.liveSources ?? 0) live"
        case .timerOutlivesTarget:
            let calling = callback.map { " calling \($0)" } ?? ""
            return "\(report.hook.name) source\(calling) outlives its target: user data \(report.object.address) freed "
                + "while the source was live, after \(report.count) fire\(report.count == 1 ? "" : "s")"
        case .other:
            return genericTitle(object: object, report: report)
        }
    }

    /// The title of a kind this build does not know: `frame-drop: TkWindow 'main', 12 frames (threshold 10)`.
    private func genericTitle(object: ObjectRef, report: Report) -> String {
        "\(rawValue): \(object.label), \(report.count) \(report.countUnit) (threshold \(report.threshold))"
    }
}
