import Foundation
import LoopHunterReport

/// The fixture report directory (machine-neutral reports and summaries made from real toykit runs,
/// plus one with a stripped library and a rebuilt module) and its analysis with the stub symbolizer.
package enum Fixtures {
    package static let reports = Native.root.appendingPathComponent("Tests/Fixtures/reports")

    package static func collection() throws -> ReportCollection {
        try ReportDirectoryReader(directory: reports).read()
    }

    /// The analysis every golden file is made from; the directory is labelled as in the repository.
    package static func analysis() throws -> Analysis {
        try Analyzer(symbolizer: StubSymbolizer(), demangler: Demangler(swiftTool: nil, cxxTool: nil))
            .analyze(collection(), directoryLabel: "Tests/LoopHunterTests/Fixtures/reports")
    }
}
