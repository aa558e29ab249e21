import ArgumentParser
import Foundation

/// `--color auto|always|never`.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never

    /// auto: colour only on a terminal, and never when NO_COLOR is set to anything non-empty
    /// (https://no-color.org) or TERM is "dumb".
    func enabled(forDescriptor fd: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            if environment["TERM"] == "dumb" { return false }
            return isatty(fd) == 1
        }
    }
}
