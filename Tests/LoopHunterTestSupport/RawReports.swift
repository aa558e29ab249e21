import Foundation
import Testing

/// A report directory's files as raw JSON objects, for tests that assert on the numbers the preload
/// wrote rather than on their formatting.
package enum RawReports {
    /// Every JSON object of the directory whose name starts with `prefix`.
    package static func json(_ dir: ReportDirectory, _ prefix: String) throws -> [[String: Any]] {
        try dir.fileNames.filter { $0.hasPrefix(prefix) }.map { name in
            let data = try Data(contentsOf: URL(fileURLWithPath: dir.path).appendingPathComponent(name))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
    }

    /// The directory's one summary (a second one fails the test).
    package static func summary(_ dir: ReportDirectory) throws -> [String: Any] {
        let all = try json(dir, "summary-")
        #expect(all.count == 1, "one summary: \(dir.fileNames)")
        return try #require(all.first)
    }

    package static func number(_ value: Any?) -> UInt64? { (value as? NSNumber)?.uint64Value }

    /// A JSON number as an Int; -1 when it is missing or not a number.
    package static func int(_ value: Any?) -> Int { (value as? NSNumber)?.intValue ?? -1 }

    /// The `alloc` object of the summary's thread named `name`.
    package static func threadAlloc(_ summary: [String: Any], _ name: String) -> [String: Any]? {
        let threads = summary["threads"] as? [[String: Any]] ?? []
        return threads.first { ($0["name"] as? String) == name }?["alloc"] as? [String: Any]
    }
}
