import ArgumentParser
import LoopHunterCore

/// A whole-number variable of the preload that `run` has an option for: its default and allowed
/// range come from the preload's own table (`lh_config.h`), so the option accepts exactly what the
/// preload accepts and its help text says so.
struct PreloadSetting: Sendable {
    /// The variable, e.g. `LOOPHUNTER_THRESHOLD`.
    let variable: String
    let defaultValue: UInt64
    let range: ClosedRange<UInt64>

    /// The variable named `variable` in the preload's table. The names are the program's own
    /// constants (below): a missing one is a build mistake, caught by the tests.
    init(_ variable: String) {
        var index = 0
        while let info = lh_config_number_at(index) {
            if String(cString: info.pointee.name) == variable {
                self.variable = variable
                defaultValue = info.pointee.default_value
                range = info.pointee.min...info.pointee.max
                return
            }
            index += 1
        }
        preconditionFailure("\(variable) is not a whole-number variable of lh_config.h")
    }

    static let threshold = PreloadSetting("LOOPHUNTER_THRESHOLD")
    static let streak = PreloadSetting("LOOPHUNTER_STREAK")
    static let maxReports = PreloadSetting("LOOPHUNTER_MAX_REPORTS")
    static let stallMs = PreloadSetting("LOOPHUNTER_STALL_MS")
    static let windowMs = PreloadSetting("LOOPHUNTER_WINDOW_MS")

    /// "2-16000000; default 100", for an option's help.
    var limits: String { "\(range.lowerBound)-\(range.upperBound); default \(defaultValue)" }

    /// Refuses a value the preload would not take, naming the option and what it counts.
    func check(_ value: Int?, _ flag: String, _ meaning: String) throws {
        let upper = range.upperBound > UInt64(Int.max) ? Int.max : Int(range.upperBound)
        try RunCommand.check(value, flag, Int(range.lowerBound)...upper, meaning)
    }
}
