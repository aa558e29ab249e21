import Foundation
import LoopHunterReport

/// A fresh report directory for one test, and what the preload wrote into it.
struct ReportDirectory {
    let path: String

    /// A path that does not exist yet (the preload must create it).
    init(_ label: String) {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("lh-test-\(label)-\(UUID().uuidString.prefix(8))").path
    }

    var exists: Bool { FileManager.default.fileExists(atPath: path) }

    var fileNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// Every file decoded; a file that does not decode is a test failure (thrown).
    func files() throws -> [ReportFile] {
        try fileNames.map { name in
            try ReportFile.load(URL(fileURLWithPath: path).appendingPathComponent(name))
        }
    }

    func reports() throws -> [Report] {
        try files().compactMap { if case .report(let r) = $0 { return r } else { return nil } }
    }

    func summaries() throws -> [Summary] {
        try files().compactMap { if case .summary(let s) = $0 { return s } else { return nil } }
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
