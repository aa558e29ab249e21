/// Titles of the event-loop health kinds (schema 1.3).
extension Analyzer {
    /// `event loop of thread 'toykit-demo' stuck 2500 ms in one iteration (limit 2000 ms), in slow_step`,
    /// `GtkWindow 'Preferences' took 2530 ms to its first frame (limit 2000 ms)`, ...
    static func healthTitle(kind: String, object: ObjectRef, report: Report, code: String?) -> String {
        switch kind {
        case "stall":
            let thread = report.object.name ?? report.thread.name
            let ongoing = report.stall?.ongoing == true
            var text = "event loop of thread '\(thread)' \(ongoing ? "still stuck after" : "stuck") \(report.count) ms "
                + "in one iteration (limit \(report.threshold) ms)"
            if let code { text += ", in \(code)" }
            return text
        case "slow-window":
            let label = report.window?.title.map { "\(object.label) \"\($0)\"" } ?? object.label
            if report.window?.painted == false {
                return "\(label) never painted its first frame (waited \(report.count) ms, limit \(report.threshold) ms)"
            }
            return "\(label) took \(report.count) ms to its first frame (limit \(report.threshold) ms)"
        case "timer-storm":
            let callback = code.map { " calling \($0)" } ?? ""
            if report.timer?.storm?.reason == "fires" {
                return "\(report.hook.name) source\(callback) fired \(report.count) times in one iteration (limit \(report.threshold))"
            }
            var text = "\(report.hook.name) sources\(callback) created faster than destroyed: \(report.count) added"
            if let iterations = report.timer?.storm?.iterations { text += " over \(iterations) iterations" }
            return text + " (limit \(report.threshold)), \(report.timer?.liveSources ?? 0) live"
        default: // timer-outlives-target
            let callback = code.map { " calling \($0)" } ?? ""
            return "\(report.hook.name) source\(callback) outlives its target: user data \(report.object.address) freed "
                + "while the source was live, after \(report.count) fire\(report.count == 1 ? "" : "s")"
        }
    }
}
