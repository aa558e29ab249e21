import Foundation
import LoopHunterCore

/// The hook families `LOOPHUNTER_HOOKS` (and `run --hooks`) can switch on: the selectable rows of
/// the preload's own family table (`lh_shared.h`), which its parser reads too. `all` and `none`
/// are accepted besides these.
enum HookFamily {
    /// The selectable families, in the table's order.
    static let names: [String] = {
        var names: [String] = []
        var index = 0
        while let name = lh_family_name_at(index) {
            if lh_family_selectable_at(index) != 0 { names.append(String(cString: name)) }
            index += 1
        }
        return names
    }()

    /// Every name `--hooks` accepts, in the order the help text lists them.
    static let acceptedNames: [String] = names + ["all", "none"]

    /// The names of a comma-separated list that are not families; empty entries are skipped as the
    /// preload skips them, and a list with no name at all is reported as unknown.
    static func unknownNames(in list: String) -> [String] {
        let names = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !names.isEmpty else { return ["(an empty list)"] }
        return names.filter { !acceptedNames.contains($0) }
    }
}
