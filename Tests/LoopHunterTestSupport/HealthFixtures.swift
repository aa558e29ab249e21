import Foundation
import LoopHunterReport

/// The event-loop health fixtures (schema 1.3): two real stall reports and a real summary written
/// by the preload (one stack sampled by signal, one by scan; pids, tags and paths made
/// machine-neutral), and hand-written slow-window, timer-storm and timer-outlives-target reports
/// and a GTK summary with windows and timers. A directory of their own, so the 1.0–1.2 fixtures'
/// goldens stay as they are.
package enum HealthFixtures {
    package static let directory = Native.root.appendingPathComponent("Tests/Fixtures/health")
    package static let label = "Tests/LoopHunterTests/Fixtures/health"

    package static func collection() throws -> ReportCollection {
        try ReportDirectoryReader(directory: directory).read()
    }

    package static func analysis() throws -> Analysis {
        try Analyzer(symbolizer: StubSymbolizer(), demangler: Demangler(swiftTool: nil, cxxTool: nil))
            .analyze(collection(), directoryLabel: label)
    }

    package static func report(_ name: String) throws -> Report {
        guard case .report(let report) = try ReportFile.load(directory.appendingPathComponent(name)) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return report
    }

    package static func summary(_ name: String) throws -> Summary {
        guard case .summary(let summary) = try ReportFile.load(directory.appendingPathComponent(name)) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return summary
    }
}
