import Foundation
import LoopHunterReport

/// The cause fixtures (schema 1.6): two real layout-loop reports written by the preload on
/// Tests/Programs/gtk/gtk_causes.c under Xvfb, a deferred one (the ping-pong through idles: the
/// request made in `ping_pong_idle`, the idle added by `label_allocated` while GTK allocated the
/// other label) with its process's summary, and an in-layout one (`relabel_in_layout`, a
/// size-allocate handler setting the text); pids, tags and paths made machine-neutral.
package enum CauseFixtures {
    package static let directory = Native.root.appendingPathComponent("Tests/Fixtures/causes")
    package static let label = "Tests/Fixtures/causes"
    package static let deferredFile = "report-6101-3a3a000b-000001-layout-loop.json"
    package static let inLayoutFile = "report-6102-4b4b000c-000001-layout-loop.json"

    package static func analysis() throws -> Analysis {
        try Analyzer(symbolizer: StubSymbolizer(), demangler: Demangler(swiftTool: nil, cxxTool: nil))
            .analyze(ReportDirectoryReader(directory: directory).read(), directoryLabel: label)
    }

    package static func report(_ name: String) throws -> Report {
        guard case .report(let report) = try ReportFile.load(directory.appendingPathComponent(name)) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return report
    }
}
