import Foundation
import LoopHunterReport
import Testing

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

    /// Fixture files the report tests edit.
    package static let stormFile = "report-4611-ffff0006-000001-alloc-storm.json"
    package static let growthFile = "report-4713-abab0007-000001-heap-growth.json"
    package static let gtkFile = "report-4817-cdcd0008-000001-layout-streak.json"
    package static let stormSummaryFile = "summary-4611-ffff0006.json"

    /// The fixture file's JSON, changed by `change`.
    package static func edited(_ file: String, _ change: (inout [String: Any]) -> Void) throws -> Data {
        let data = try Data(contentsOf: Fixtures.reports.appendingPathComponent(file))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        change(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    package static func decodeReport(_ data: Data) throws -> Report {
        guard case .report(let report) = try ReportFile.decode(data, path: "edited.json") else {
            throw FixtureError(description: "not a report")
        }
        return report
    }

    package static func decodeSummary(_ data: Data) throws -> Summary {
        guard case .summary(let summary) = try ReportFile.decode(data, path: "edited.json") else {
            throw FixtureError(description: "not a summary")
        }
        return summary
    }

    /// The analysis of these reports (as files `r0.json`, `r1.json`, ...), with the stub symbolizer.
    package static func analysis(of reports: [Data]) throws -> Analysis {
        let located = try reports.enumerated().map { index, data in
            LocatedReport(path: "reports/r\(index).json", report: try decodeReport(data))
        }
        return try Analyzer(symbolizer: StubSymbolizer(), demangler: Demangler(swiftTool: nil, cxxTool: nil))
            .analyze(ReportCollection(directory: "reports", reports: located))
    }
}
