import Foundation

/// The hook families `LOOPHUNTER_HOOKS` (and `run --hooks`) can switch on; the preload's
/// `lh_config.c` parses the same names. `all` and `none` are accepted besides these.
enum HookFamily: String, CaseIterable {
    case layout, alloc, loop, log, stall, window, timer

    /// Every name `--hooks` accepts, in the order the help text lists them.
    static let acceptedNames: [String] = allCases.map(\.rawValue) + ["all", "none"]

    /// The names of a comma-separated list that are not families; empty entries are skipped as the
    /// preload skips them, and a list with no name at all is reported as unknown.
    static func unknownNames(in list: String) -> [String] {
        let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !names.isEmpty else { return ["(an empty list)"] }
        return names.filter { !acceptedNames.contains($0) }
    }
}
