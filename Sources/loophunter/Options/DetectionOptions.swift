import ArgumentParser

/// What LoopHunter looks for and how much it writes: the options `run` and `attach` share, each one
/// a LOOPHUNTER_* variable of the preload (docs/configuration.md).
struct DetectionOptions: ParsableArguments {
    @Option(help: "Layouts of one object in one iteration that count as a loop (\(PreloadSetting.threshold.limits)).")
    var threshold: Int?

    @Option(help: "Back-to-back hot iterations that count as a loop in capped toolkits (\(PreloadSetting.streak.limits)).")
    var streak: Int?

    @Option(name: .customLong("stall-ms"), help: ArgumentHelp("Milliseconds one event-loop iteration may run before it is a stall (\(PreloadSetting.stallMs.limits)).", valueName: "ms"))
    var stallMs: Int?

    @Option(name: .customLong("window-ms"), help: ArgumentHelp("Milliseconds a window may take to its first frame (\(PreloadSetting.windowMs.limits)).", valueName: "ms"))
    var windowMs: Int?

    @Option(name: .customLong("max-reports"), help: "Reports written per process at most (\(PreloadSetting.maxReports.limits)).")
    var maxReports: Int?

    @Option(help: ArgumentHelp("Hook families to switch on: \(HookFamily.acceptedNames.joined(separator: ", ")) (comma-separated; default all).", valueName: "list"))
    var hooks: String?

    func validate() throws {
        try PreloadSetting.threshold.check(threshold, "--threshold", "layouts of one object in one iteration")
        try PreloadSetting.streak.check(streak, "--streak", "back-to-back hot iterations")
        try PreloadSetting.maxReports.check(maxReports, "--max-reports", "reports per process")
        try PreloadSetting.stallMs.check(stallMs, "--stall-ms", "milliseconds one event-loop iteration may run before it is a stall")
        try PreloadSetting.windowMs.check(windowMs, "--window-ms", "milliseconds a window may take to its first frame")
        if let hooks {
            let unknown = HookFamily.unknownNames(in: hooks)
            if !unknown.isEmpty {
                throw ValidationError("--hooks \(hooks): unknown family \(unknown.joined(separator: ", ")); use a comma-separated list of \(HookFamily.acceptedNames.joined(separator: ", "))")
            }
        }
    }

    /// The preload's variables for the options given (the others keep the preload's defaults).
    var variables: [String: String] {
        var env: [String: String] = [:]
        if let threshold { env["LOOPHUNTER_THRESHOLD"] = String(threshold) }
        if let streak { env["LOOPHUNTER_STREAK"] = String(streak) }
        if let maxReports { env["LOOPHUNTER_MAX_REPORTS"] = String(maxReports) }
        if let stallMs { env["LOOPHUNTER_STALL_MS"] = String(stallMs) }
        if let windowMs { env["LOOPHUNTER_WINDOW_MS"] = String(windowMs) }
        if let hooks { env["LOOPHUNTER_HOOKS"] = hooks }
        return env
    }
}
