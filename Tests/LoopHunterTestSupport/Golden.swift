import Foundation
import Testing

/// Golden files: expected outputs under Tests/Goldens. Run the tests with
/// LOOPHUNTER_UPDATE_GOLDENS=1 to (re)write them after an intended change, then review the diff.
package enum Golden {
    package static let directory = Native.root.appendingPathComponent("Tests/Goldens")

    package static func check(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["LOOPHUNTER_UPDATE_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        if actual != expected {
            let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let line = (0..<min(a.count, e.count)).first { a[$0] != e[$0] } ?? min(a.count, e.count)
            Issue.record("""
                \(name) differs from the golden file at line \(line + 1):
                  expected: \(line < e.count ? String(e[line]) : "<end>")
                  actual:   \(line < a.count ? String(a[line]) : "<end>")
                (LOOPHUNTER_UPDATE_GOLDENS=1 rewrites it)
                """, sourceLocation: sourceLocation)
        }
    }
}
