import Foundation
import LoopHunterReport
import LoopHunterTestSupport
import Testing

/// Qt's own warnings about layout (Tests/Programs/qt/warnings.cpp, Qt 5 and Qt 6): a second QLayout
/// on a widget, a QML binding loop, a Quick item polished 1,500 times inside one frame. Each is a
/// toolkit-warning report with the stack that logged it, and the program's own message handler,
/// installed before its application, still sees every message: the program's output (its handler's
/// count) and its stderr are as without LoopHunter.
@Suite("Qt's layout warnings: reported with their stacks, the program's own message handler kept")
struct QtWarningsTests {
    @Test("QLayout, QML binding loop and Quick polish loop warnings", arguments: [5, 6])
    func warnings(_ major: Int) throws {
        try Native.ensureBuilt()
        let program = QtProgram.built.appendingPathComponent("qt\(major)-warnings").path
        let dir = ReportDirectory("qt\(major)-warnings")
        defer { dir.remove() }
        let env: [String: String?] = ["QT_QPA_PLATFORM": "offscreen", "QT_QUICK_BACKEND": "software"]
        let plain = HostRun.run([program], environment: env, timeout: 60)
        let traced = HostRun.underPreload([program], dir: dir.path, extra: env, timeout: 60)
        #expect(plain.status == 0 && traced.status == 0 && !traced.timedOut, "\(traced.stderr)")
        #expect(plain.stdout.hasPrefix("warnings: ") && traced.stdout == plain.stdout,
                "the program's handler saw every message: \(plain.stdout) / \(traced.stdout)")
        #expect(GTKRun.normalized(traced.stderr) == GTKRun.normalized(plain.stderr), "Qt's messages printed as before")
        let reports = try dir.reports()
        let warnings = reports.filter { $0.kind == .toolkitWarning }
        for phrase in ["QLayout: Attempting to add QLayout", "Binding loop detected for property \"width\"",
                       "possible QQuickItem::polish() loop"] {
            let report = warnings.first { $0.warning?.message.contains(phrase) == true }
            #expect(report != nil, "a toolkit-warning for \(phrase): \(warnings.map { $0.warning?.message ?? "" })")
            #expect(report.map { $0.warning?.domain == "Qt" && !$0.frames.isEmpty } ?? false, "with the stack that logged it")
        }
        #expect(warnings.count == 3, "one report per warning, repeats throttled: \(warnings.map { $0.warning?.message ?? "" })")
        // The item's 1,500 polishes in one frame are a layout storm of its own.
        #expect(reports.contains { $0.kind == .layoutStorm && $0.object.name == "self-polish" },
                "\(reports.map { "\($0.kind.rawValue) \($0.object.path)" })")
    }
}
