import Foundation

/// Report directories for the ship tests: the fixture reports (real preload output) copied with
/// fresh ids, pids and names, as the preload would write them (0600 files in a 0700 directory).
package struct ShipReports {
    package let path: String
    /// The ids of the reports written, in writing order.
    package private(set) var ids: [String] = []

    /// A new, empty report directory (0700).
    package init(_ label: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("lh-ship-\(label)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// The fixture reports' bytes.
    package static let fixtures: [Data] = {
        let directory = Native.root.appendingPathComponent("Tests/Fixtures/reports")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasPrefix("report-") }.sorted()
        return names.compactMap { FileManager.default.contents(atPath: directory.appendingPathComponent($0).path) }
    }()

    /// One report's file name and bytes, with a fresh id.
    package static func makeReport(_ index: Int) -> (name: String, id: String, data: Data) {
        var report = (try? JSONSerialization.jsonObject(with: fixtures[index % fixtures.count]) as? [String: Any]) ?? [:]
        let tag = String(format: "%08x", UInt32.random(in: 0...UInt32.max))
        let pid = 200_000 + index
        let id = "\(tag)\(String(format: "%08x", index))-\(pid)-1"
        report["id"] = id
        report["process"] = (report["process"] as? [String: Any] ?? [:]).merging(["pid": pid]) { $1 }
        let kind = report["kind"] as? String ?? "layout-storm"
        let data = (try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])) ?? Data()
        return ("report-\(pid)-\(tag)-000001-\(kind).json", id, data)
    }

    /// Adds `count` reports (written to a dot-name, then renamed, as the preload does).
    @discardableResult
    package mutating func add(_ count: Int) throws -> [String] {
        var added: [String] = []
        for _ in 0..<count {
            let (name, id, data) = Self.makeReport(ids.count)
            let temporary = path + "/." + name + ".tmp"
            _ = FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600])
            try FileManager.default.moveItem(atPath: temporary, toPath: path + "/" + name)
            ids.append(id)
            added.append(id)
        }
        return added
    }

    /// Writes a file under a report name (for poison files).
    package func plant(_ name: String, _ data: Data) {
        _ = FileManager.default.createFile(atPath: path + "/" + name, contents: data, attributes: [.posixPermissions: 0o600])
    }

    package var spool: String { path + "/.ship" }

    /// The file names in a spool state (`pending`, `sent`, `rejected`; in-flight: every owner's).
    package func names(in state: String) -> [String] {
        let directory = spool + "/" + state
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        if state == "in-flight" {
            return names.flatMap { owner in
                ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/" + owner)) ?? []).filter { $0 != ".lock" }
            }
        }
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    /// Report files in the report directory itself.
    package var reportNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasPrefix("report-") }.sorted()
    }

    package func remove() { try? FileManager.default.removeItem(atPath: path) }
}
