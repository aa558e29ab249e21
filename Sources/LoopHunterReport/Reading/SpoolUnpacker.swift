import Foundation

/// Turns the records of a report directory's spool files (``SpoolFile``) into the files the preload
/// would have written had the process not been sandboxed: `report-<pid>-<tag>-<seq>-<kind>.json`
/// and `summary-<pid>-<tag>.json`, so that `ship` and `watch` see them like any other report.
///
/// Each file is written 0600 under a temporary `.`-name and linked into place without replacing
/// anything, so a record unpacked before (by an earlier `run` or `ship`) is left as it is, and a
/// reader never sees a partial file. The spool itself is never changed. Records that do not check,
/// or whose id is not the preload's, are not unpacked (`report` still names them).
public enum SpoolUnpacker {
    /// Unpacks every spool file of `directory`; returns how many files were written now.
    @discardableResult
    public static func unpack(directory: String) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return 0 }
        var written = 0
        for name in names.sorted() where SpoolFile.isSpoolName(name) {
            let path = directory + "/" + name
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: [.mappedIfSafe]),
                  data.count <= SpoolFile.maximumBytes else { continue }
            for record in SpoolFile(data).records {
                guard let file = fileName(of: record) else { continue }
                if write(record, to: directory + "/" + file) { written += 1 }
            }
        }
        return written
    }

    /// The preload's file name for a record, from its schema, id and kind.
    static func fileName(of record: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: record) as? [String: Any],
              let schema = object["schema"] as? String, let id = object["id"] as? String else { return nil }
        let parts = id.split(separator: "-").map(String.init)
        guard parts.count >= 2, parts[0].count == 16, parts[0].allSatisfy(\.isHexDigit),
              let pid = Int(parts[1]), pid > 0 else { return nil }
        let tag = parts[0].prefix(8)
        if schema == ReportFile.summarySchema, parts.count == 2 {
            return "summary-\(pid)-\(tag).json"
        }
        guard schema == ReportFile.reportSchema, parts.count == 3, let seq = UInt64(parts[2]),
              let kind = object["kind"] as? String, !kind.isEmpty,
              kind.allSatisfy({ $0.isLetter || $0 == "-" }) else { return nil }
        let hex = String(seq, radix: 16)
        return "report-\(pid)-\(tag)-\(String(repeating: "0", count: max(0, 6 - hex.count)))\(hex)-\(kind).json"
    }

    /// Writes `data` at `path` unless a file is there: a temporary file, then link(2).
    private static func write(_ data: Data, to path: String) -> Bool {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).unpack").path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        let complete = data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        close(fd)
        defer { unlink(temporary) }
        return complete && link(temporary, path) == 0
    }
}
