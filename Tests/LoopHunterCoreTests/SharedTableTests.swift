import Foundation
import LoopHunterCore
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// What the preload (C) and the loophunter command (Swift) must agree on is written once, in the C
/// core (lh_shared.h, lh_config.h); the Swift side reads it or is checked against it here.
@Suite("one source for C and Swift")
struct SharedTableTests {
    /// The C table's entries, in order, through an accessor that gives NULL past the end.
    static func names(_ at: (Int) -> UnsafePointer<CChar>?) -> [String] {
        var names: [String] = []
        while let name = at(names.count) { names.append(String(cString: name)) }
        return names
    }

    @Test("the reporter knows exactly the report kinds the preload writes, in the same order")
    func kinds() {
        let written = Self.names { lh_kind_name_at($0) }
        #expect(written.count == Int(LH_KIND_COUNT.rawValue))
        #expect(ReportKind.known.map(\.rawValue) == written)
        for name in written { #expect(ReportKind(rawValue: name).rawValue == name) }
    }

    @Test("the schema version read is the one the preload writes")
    func schemaVersion() {
        #expect(SchemaVersion.current.description == LH_SCHEMA_VERSION)
        #expect(SchemaVersion(LH_SCHEMA_VERSION) == SchemaVersion.current)
    }

    @Test("run --hooks and run's limits come from the preload's tables")
    func runOptions() {
        let help = HostRun.cli(["run", "--help"])
        #expect(help.status == 0, "\(help.stderr)")
        let text = help.stdout.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        var selectable: [String] = []
        for (index, name) in Self.names({ lh_family_name_at($0) }).enumerated() where lh_family_selectable_at(index) != 0 {
            selectable.append(name)
        }
        #expect(selectable.contains("layout") && selectable.contains("alloc") && !selectable.contains("process"))
        #expect(text.contains("Hook families to switch on: \(selectable.joined(separator: ", ")), all, none"), "\(text)")
        // Every whole-number variable run has an option for: the help states the table's range.
        let options = ["LOOPHUNTER_THRESHOLD": "--threshold", "LOOPHUNTER_STREAK": "--streak",
                       "LOOPHUNTER_MAX_REPORTS": "--max-reports", "LOOPHUNTER_STALL_MS": "--stall-ms",
                       "LOOPHUNTER_WINDOW_MS": "--window-ms"]
        var index = 0
        while let info = lh_config_number_at(index) {
            index += 1
            guard let flag = options[String(cString: info.pointee.name)] else { continue }
            let limits = "\(info.pointee.min)-\(info.pointee.max); default \(info.pointee.default_value)"
            #expect(text.contains(limits), "\(flag): \(limits)")
            // One past the maximum is refused, naming the option and the table's range.
            let refused = HostRun.cli(["run", flag, String(info.pointee.max + 1), "--", "/bin/true"])
            #expect(refused.status != 0 && refused.stderr.contains("\(flag) must be between \(info.pointee.min) and \(info.pointee.max)"),
                    "\(refused.stderr)")
        }
    }
}
