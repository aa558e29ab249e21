import Foundation
import Testing

/// Every report (by kind) and the summaries a run wrote, as raw JSON objects.
package struct RawOutput {
    package let reports: [[String: Any]]
    package let summaries: [[String: Any]]

    package func kind(_ kind: String) -> [[String: Any]] { reports.filter { $0["kind"] as? String == kind } }

    /// The first summary (empty when there is none).
    package var summary: [String: Any] { summaries.first ?? [:] }

    package static func read(_ dir: ReportDirectory) throws -> RawOutput {
        var reports: [[String: Any]] = [], summaries: [[String: Any]] = []
        for name in dir.fileNames.sorted() {
            let data = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/" + name))
            let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(name) is a JSON object")
            if name.hasPrefix("report-") { reports.append(json) } else if name.hasPrefix("summary-") { summaries.append(json) }
        }
        return RawOutput(reports: reports, summaries: summaries)
    }
}
