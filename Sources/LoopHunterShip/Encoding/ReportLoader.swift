import Foundation
import LoopHunterReport

/// Reads a claimed report without following symlinks and checks it is a report this build can
/// encode. A file that is not (empty, not JSON, too large, a summary, a future major version) is
/// a poison file: the shipper sets it aside in `rejected/` rather than sending or retrying it.
enum ReportLoader {
    /// `shownAs` is the path named in error messages (the one in the report directory).
    static func load(_ entry: SpoolEntry, shownAs: String) throws(ReportFileError) -> LoadedReport {
        let fd = open(entry.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw .unreadable(path: shownAs, reason: code == ELOOP ? "a symlink" : POSIXFiles.reason(code))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, POSIXFiles.isRegular(st) else { throw .notLoopHunter(path: shownAs) }
        let size = Int(st.st_size)
        guard size <= ReportFile.maximumBytes else {
            throw .tooLarge(path: shownAs, bytes: size, limit: ReportFile.maximumBytes)
        }
        var data = Data(count: size)
        let got = data.withUnsafeMutableBytes { buffer -> Int in
            var offset = 0
            while offset < buffer.count {
                let n = read(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; return -1 }
                if n == 0 { break }
                offset += n
            }
            return offset
        }
        guard got == size else { throw .unreadable(path: shownAs, reason: "short read") }
        switch try ReportFile.decode(data, path: shownAs) {
        case .report(let report): return LoadedReport(entry: entry, data: data, report: report)
        case .summary: throw .invalid(path: shownAs, detail: "a process summary, not a report (summaries are not shipped)")
        }
    }
}
