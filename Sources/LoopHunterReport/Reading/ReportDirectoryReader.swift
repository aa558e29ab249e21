import Foundation

/// Reads every report and summary in a directory, in parallel, without ever deleting, moving or
/// rewriting anything in it.
///
/// Every regular file whose name does not start with `.` is read (the preload's temporaries are
/// `.<name>.tmp`); subdirectories are not entered. A spool file (``SpoolFile``: what a sandboxed
/// process wrote) is read record by record, each record located as `<path>#<n>`. A file that cannot be used (empty, not JSON,
/// cut short, too large, a future schema, a broken or looping symlink, unreadable) becomes a
/// ``ReportFileError`` in ``ReportCollection/problems``, with a message naming it, and reading
/// goes on with the next file.
public struct ReportDirectoryReader: Sendable {
    public let directory: URL
    /// Files larger than this are not read (reports are a few KiB).
    public let sizeLimit: Int

    public init(directory: URL, sizeLimit: Int = ReportFile.maximumBytes) {
        self.directory = directory
        self.sizeLimit = sizeLimit
    }

    /// Reads the directory. Throws only when the directory itself cannot be read.
    public func read() throws(ReportDirectoryError) -> ReportCollection {
        let names = try listNames()
        // `appendingPathComponent(name).path` for every name, without making one URL per file.
        let prefix = String(directory.appendingPathComponent("_").path.dropLast())
        let paths = names.map { prefix + $0 }
        let results = IndexedResults<ReadOutcome>(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: paths.count) { i in
            results[i] = Self.readOne(paths[i], sizeLimit: sizeLimit)
        }
        var collection = ReportCollection(directory: directory.path)
        func add(_ outcome: ReadOutcome?, path: String) {
            switch outcome {
            case .report(let report): collection.reports.append(LocatedReport(path: path, report: report))
            case .summary(let summary): collection.summaries.append(LocatedSummary(path: path, summary: summary))
            case .problem(let problem): collection.problems.append(problem)
            case .spool(let records):
                for (n, record) in records.enumerated() { add(record, path: "\(path)#\(n + 1)") }
            case .skipped, .none: break
            }
        }
        for i in 0..<paths.count { add(results[i], path: paths[i]) }
        collection.dropSpooledDuplicates()
        collection.reports.sort { ($0.report.timeNs, $0.path) < ($1.report.timeNs, $1.path) }
        collection.summaries.sort { $0.path < $1.path }
        return collection
    }

    private func listNames() throws(ReportDirectoryError) -> [String] {
        let path = directory.path
        var st = stat()
        if stat(path, &st) != 0 {
            let code = errno
            if code == ENOENT { throw .missing(path: path) }
            if code == ELOOP { throw .symlinkLoop(path: path) }
            throw .unreadable(path: path, reason: String(cString: strerror(code)))
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { throw .notADirectory(path: path) }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: path)
                .filter { !$0.hasPrefix(".") }
                .sorted()
        } catch {
            throw .unreadable(path: path, reason: Self.reason(error))
        }
    }

    private static func readOne(_ path: String, sizeLimit: Int) -> ReadOutcome {
        var st = stat()
        if stat(path, &st) != 0 {
            let code = errno
            switch code {
            case ELOOP: return .problem(.unreadable(path: path, reason: "symlink loop"))
            case ENOENT: return .problem(.unreadable(path: path, reason: "broken symlink, or removed while reading"))
            default: return .problem(.unreadable(path: path, reason: String(cString: strerror(code))))
            }
        }
        switch st.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .skipped // subdirectories are not entered
        default: return .problem(.notLoopHunter(path: path))
        }
        if SpoolFile.isSpoolName(URL(fileURLWithPath: path).lastPathComponent) {
            return readSpool(path, size: Int(st.st_size))
        }
        if Int(st.st_size) > sizeLimit {
            return .problem(.tooLarge(path: path, bytes: Int(st.st_size), limit: sizeLimit))
        }
        do {
            switch try ReportFile.load(path: path) {
            case .report(let report): return .report(report)
            case .summary(let summary): return .summary(summary)
            }
        } catch {
            return .problem(error)
        }
    }

    /// Each record of a spool file, decoded as a file of its own would be.
    private static func readSpool(_ path: String, size: Int) -> ReadOutcome {
        if size > SpoolFile.maximumBytes {
            return .problem(.tooLarge(path: path, bytes: size, limit: SpoolFile.maximumBytes))
        }
        if access(path, R_OK) != 0 { return .problem(.unreadable(path: path, reason: String(cString: strerror(errno)))) }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: [.mappedIfSafe]) else {
            return .problem(.unreadable(path: path, reason: "cannot be read"))
        }
        let spool = SpoolFile(data)
        var outcomes: [ReadOutcome] = []
        for (n, record) in spool.records.enumerated() {
            do throws(ReportFileError) {
                switch try ReportFile.decode(record, path: "\(path)#\(n + 1)") {
                case .report(let report): outcomes.append(.report(report))
                case .summary(let summary): outcomes.append(.summary(summary))
                }
            } catch {
                outcomes.append(.problem(error))
            }
        }
        if spool.damaged > 0 {
            outcomes.append(.problem(.invalid(path: path, detail: "\(spool.damaged) spooled record(s) cut short or damaged (the disk was full?)")))
        }
        return .spool(outcomes)
    }

    static func reason(_ error: any Error) -> String {
        if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain,
           let text = strerror(Int32(posix.code)) {
            return String(cString: text)
        }
        return (error as NSError).localizedDescription
    }
}
