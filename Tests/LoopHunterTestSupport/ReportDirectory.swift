import Foundation
import LoopHunterReport

/// A fresh report directory for one test, and what the preload wrote into it.
package struct ReportDirectory {
    package let path: String

    /// A path that does not exist yet (the preload must create it).
    package init(_ label: String) {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("lh-test-\(label)-\(UUID().uuidString.prefix(8))").path
    }

    /// A report directory at a given path (made by someone else).
    package init(at path: String) { self.path = path }

    package var exists: Bool { FileManager.default.fileExists(atPath: path) }

    package var fileNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// Every file decoded, dot files aside as the reader skips them (a killed `loophunter attach`
    /// leaves its `.attach-control-PID`); a file that does not decode is a test failure (thrown).
    package func files() throws -> [ReportFile] {
        try fileNames.filter { !$0.hasPrefix(".") }.map { name in
            try ReportFile.load(URL(fileURLWithPath: path).appendingPathComponent(name))
        }
    }

    package func reports() throws -> [Report] {
        try files().compactMap { if case .report(let r) = $0 { return r } else { return nil } }
    }

    package func summaries() throws -> [Summary] {
        try files().compactMap { if case .summary(let s) = $0 { return s } else { return nil } }
    }

    package func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// The ids of the report files in `path` (not its spool).
    package static func reportIds(in path: String) throws -> [String] {
        try ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasPrefix("report-") }.sorted().map { name in
            guard case .report(let report) = try ReportFile.load(URL(fileURLWithPath: path + "/" + name)) else { return "" }
            return report.id
        }
    }
}
