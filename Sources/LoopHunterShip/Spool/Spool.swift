import Foundation

/// The spool of a report directory, `DIR/.ship/`, where each report moves through its delivery
/// states by atomic renames, so that a crash or `kill -9` at any point loses nothing and leaves
/// nothing half-written:
///
/// ```
/// DIR/report-*.json               the preload's files, never changed by the spool
/// DIR/.ship/intake.lock           held while taking reports in, recovering or evicting
/// DIR/.ship/pending/NAME          a hard link to DIR/NAME: owed to the collector
/// DIR/.ship/in-flight/OWNER/NAME  claimed by the running shipper OWNER (it holds OWNER/.lock)
/// DIR/.ship/sent/NAME             accepted by the collector
/// DIR/.ship/rejected/NAME         refused (400) or unusable, with NAME.response beside it
/// ```
///
/// A report enters by `link(2)` (the preload's file stays where it is, so `loophunter report DIR`
/// still shows it) and then only ever moves by `rename(2)` within the spool: at every instant it
/// is in exactly one state. The in-flight directory of a shipper that died (its `flock` is gone)
/// goes back to pending on the next start, which is what makes delivery at-least-once. Every
/// directory is 0700; nothing here is ever rewritten, only renamed or removed.
public struct Spool: Sendable {
    /// The spool's directory inside the report directory (hidden: readers and watchers skip it).
    public static let directoryName = ".ship"
    /// Beside a rejected report: why, in the collector's words or ours.
    public static let responseSuffix = ".response"

    /// The report directory (the preload's LOOPHUNTER_DIR).
    public let reportDirectory: String
    /// `reportDirectory/.ship`.
    public let root: String
    /// This shipper's directory name under `in-flight/`.
    public let owner: String
    private let ownerLock: FileLock

    /// Checks the report directory (see ``DirectoryGuard``), creates or checks the spool's
    /// directories (0700, ours, no symlinks), and registers this shipper as an in-flight owner.
    public static func open(reportDirectory: String) throws(SpoolError) -> Spool {
        let directory = URL(fileURLWithPath: reportDirectory).standardizedFileURL.path
        try DirectoryGuard.checkReportDirectory(directory)
        let root = directory + "/" + directoryName
        try POSIXFiles.ensurePrivateDirectory(root)
        for state in SpoolState.allCases {
            try POSIXFiles.ensurePrivateDirectory(root + "/" + state.directoryName)
        }
        // Made under a dot name and renamed once locked, so that no other shipper ever sees an
        // owner directory whose lock is not held yet. (A recovering shipper may remove an empty
        // staging directory before its lock exists: then try again with another name.)
        let inFlight = root + "/" + SpoolState.inFlight.directoryName
        var attempt = 0
        while true {
            attempt += 1
            let owner = "\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
            let staging = inFlight + "/.new-" + owner
            do {
                try POSIXFiles.ensurePrivateDirectory(staging)
                guard let lock = try FileLock.acquire(staging + "/.lock", create: true, wait: false) else {
                    throw SpoolError.unusable(path: staging, reason: "another process holds a lock it just created")
                }
                guard rename(staging, inFlight + "/" + owner) == 0 else {
                    throw SpoolError.unusable(path: staging, reason: "cannot be renamed into place (\(POSIXFiles.reason(errno)))")
                }
                return Spool(reportDirectory: directory, root: root, owner: owner, ownerLock: lock)
            } catch {
                if attempt >= 3 { throw (error as? SpoolError) ?? .unusable(path: staging, reason: "\(error)") }
            }
        }
    }

    private init(reportDirectory: String, root: String, owner: String, ownerLock: FileLock) {
        self.reportDirectory = reportDirectory
        self.root = root
        self.owner = owner
        self.ownerLock = ownerLock
    }

    /// The directory of a state (for in-flight: the parent of every owner's directory).
    public func path(of state: SpoolState) -> String { root + "/" + state.directoryName }

    /// This shipper's in-flight directory.
    public var ownerDirectory: String { path(of: .inFlight) + "/" + owner }

    /// Whether a file name is one the preload gives a report.
    public static func isReportName(_ name: String) -> Bool {
        name.hasPrefix("report-") && name.hasSuffix(".json")
    }

    // MARK: - Taking reports in

    /// Gives the reports of every shipper that died (its in-flight lock is free) back to pending.
    /// Returns how many went back.
    @discardableResult
    public func recover() throws(SpoolError) -> Int {
        try withIntakeLock { () throws(SpoolError) -> Int in
            let inFlight = path(of: .inFlight)
            var recovered = 0
            for name in POSIXFiles.names(in: inFlight) where name != owner {
                let directory = inFlight + "/" + name
                guard let st = POSIXFiles.lstatus(directory), POSIXFiles.isDirectory(st) else { continue }
                let lockPath = directory + "/.lock"
                let lock: FileLock?
                if POSIXFiles.lstatus(lockPath) == nil {
                    // A shipper killed between mkdir and creating its lock left an empty directory
                    // (a staging directory never holds reports; rmdir removes only empty ones).
                    lock = nil
                } else {
                    guard let held = try? FileLock.acquire(lockPath, create: false, wait: false) else { continue } // alive
                    lock = held
                }
                for file in POSIXFiles.names(in: directory) where file != ".lock" {
                    if rename(directory + "/" + file, path(of: .pending) + "/" + file) == 0 { recovered += 1 }
                }
                unlink(lockPath)
                rmdir(directory)
                _ = lock
            }
            return recovered
        }
    }

    /// Links every report of the report directory that is in no state yet into `pending/`.
    /// Only regular files with a report name that belong to this user are taken; symlinks and
    /// other users' files are left alone and named in ``IntakeResult/ignored``.
    public func intake() throws(SpoolError) -> IntakeResult {
        try withIntakeLock { () throws(SpoolError) -> IntakeResult in
            var result = IntakeResult()
            let candidates = POSIXFiles.names(in: reportDirectory).filter(Self.isReportName)
            if candidates.isEmpty { return result }
            // States listed in the order reports move through them, so a report moving on while
            // we list is still seen (recovery, the one backward move, takes the same lock).
            var known = Set(POSIXFiles.names(in: path(of: .pending)))
            for owner in POSIXFiles.names(in: path(of: .inFlight)) {
                known.formUnion(POSIXFiles.names(in: path(of: .inFlight) + "/" + owner))
            }
            known.formUnion(POSIXFiles.names(in: path(of: .sent)))
            known.formUnion(POSIXFiles.names(in: path(of: .rejected)))
            for name in candidates where !known.contains(name) {
                let source = reportDirectory + "/" + name
                guard let st = POSIXFiles.lstatus(source) else { continue }
                guard POSIXFiles.isRegular(st) else {
                    result.ignored.append("\(source): not a regular file (a symlink?), not shipped")
                    continue
                }
                guard st.st_uid == geteuid() else {
                    result.ignored.append("\(source): owned by user \(st.st_uid), not by you, not shipped")
                    continue
                }
                if link(source, path(of: .pending) + "/" + name) == 0 {
                    result.added += 1
                } else if errno != EEXIST && errno != ENOENT {
                    throw .unusable(path: path(of: .pending), reason: "cannot link \(name) into it (\(POSIXFiles.reason(errno)))")
                }
            }
            return result
        }
    }

    // MARK: - Delivering

    /// The pending reports, oldest first (by modification time, then name), with their sizes: the
    /// order ``claim(_:)`` takes them in. One listing serves many claims: a report another shipper
    /// claims in the meantime is skipped by the claim.
    public func pendingOldestFirst() -> [SpoolEntry] {
        let pending = path(of: .pending)
        var dated: [(modified: timespec, entry: SpoolEntry)] = []
        for name in POSIXFiles.names(in: pending) where !name.hasPrefix(".") {
            let path = pending + "/" + name
            guard let st = POSIXFiles.lstatus(path) else { continue }
            dated.append((st.st_mtim, SpoolEntry(name: name, path: path, bytes: Int(st.st_size))))
        }
        dated.sort {
            ($0.modified.tv_sec, $0.modified.tv_nsec, $0.entry.name) < ($1.modified.tv_sec, $1.modified.tv_nsec, $1.entry.name)
        }
        return dated.map(\.entry)
    }

    /// Moves pending reports (from ``pendingOldestFirst()``) into this shipper's in-flight
    /// directory, in order. A report that is no longer pending (another shipper claimed it first)
    /// is skipped. Returns the claimed reports at their new paths.
    public func claim(_ candidates: some Sequence<SpoolEntry>) -> [SpoolEntry] {
        let pending = path(of: .pending)
        let owned = ownerDirectory
        var claimed: [SpoolEntry] = []
        for candidate in candidates {
            let target = owned + "/" + candidate.name
            guard rename(pending + "/" + candidate.name, target) == 0 else { continue }
            claimed.append(SpoolEntry(name: candidate.name, path: target, bytes: candidate.bytes))
        }
        return claimed
    }

    /// The collector accepted the report.
    @discardableResult
    public func markSent(_ entry: SpoolEntry) -> Bool {
        rename(entry.path, path(of: .sent) + "/" + entry.name) == 0
    }

    /// The collector refused the report (or it cannot be sent): `reason` is kept beside it,
    /// written completely before the report moves, so a rejected report always has its reason.
    @discardableResult
    public func markRejected(_ entry: SpoolEntry, reason: String) -> Bool {
        let rejected = path(of: .rejected)
        _ = POSIXFiles.writeAtomically(Data(reason.utf8), to: rejected + "/" + entry.name + Self.responseSuffix)
        return rename(entry.path, rejected + "/" + entry.name) == 0
    }

    /// Gives claimed reports back to pending (a later run, or this one, sends them).
    public func release(_ entries: [SpoolEntry]) {
        for entry in entries { rename(entry.path, path(of: .pending) + "/" + entry.name) }
    }

    /// Gives back everything this shipper still holds and removes its in-flight directory.
    public func close() {
        let directory = ownerDirectory
        for file in POSIXFiles.names(in: directory) where file != ".lock" {
            rename(directory + "/" + file, path(of: .pending) + "/" + file)
        }
        unlink(directory + "/.lock")
        rmdir(directory)
    }

    /// The number of reports in each state.
    public func counts() -> SpoolCounts {
        var counts = SpoolCounts()
        counts.pending = POSIXFiles.names(in: path(of: .pending)).filter { !$0.hasPrefix(".") }.count
        for owner in POSIXFiles.names(in: path(of: .inFlight)) {
            counts.inFlight += POSIXFiles.names(in: path(of: .inFlight) + "/" + owner).filter(Self.isReportName).count
        }
        counts.sent = POSIXFiles.names(in: path(of: .sent)).filter(Self.isReportName).count
        counts.rejected = POSIXFiles.names(in: path(of: .rejected)).filter(Self.isReportName).count
        return counts
    }

    // MARK: - Bounded storage

    /// Applies the caps to `sent/` and `rejected/`: first everything older than the age cap, then
    /// the oldest until both the count and the byte caps hold. A removed report is removed from
    /// the report directory too (it is the same file), so that it is neither kept nor taken in
    /// again. Returns how many reports were removed.
    @discardableResult
    public func evict(_ policy: RetentionPolicy, now: Date = Date()) throws(SpoolError) -> Int {
        try withIntakeLock { () throws(SpoolError) -> Int in
            evict(.sent, caps: policy.sent, now: now) + evict(.rejected, caps: policy.rejected, now: now)
        }
    }

    private func evict(_ state: SpoolState, caps: RetentionCaps, now: Date) -> Int {
        let directory = path(of: state)
        let names = POSIXFiles.names(in: directory)
        let nameSet = Set(names)
        var kept: [(name: String, changed: Double, bytes: Int)] = []
        for name in names where Self.isReportName(name) {
            guard let st = POSIXFiles.lstatus(directory + "/" + name) else { continue }
            var bytes = Int(st.st_size)
            if nameSet.contains(name + Self.responseSuffix),
               let response = POSIXFiles.lstatus(directory + "/" + name + Self.responseSuffix) {
                bytes += Int(response.st_size)
            }
            // The change time is set by the rename into this state: the age is the time here.
            kept.append((name, Double(st.st_ctim.tv_sec) + Double(st.st_ctim.tv_nsec) / 1e9, bytes))
        }
        // A reason whose report is gone (killed between the two steps of markRejected), and
        // temporaries of a reason being written when the shipper died (an hour old).
        for name in names where name.hasSuffix(Self.responseSuffix) && !name.hasPrefix(".") {
            if !nameSet.contains(String(name.dropLast(Self.responseSuffix.count))) { unlink(directory + "/" + name) }
        }
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            if let st = POSIXFiles.lstatus(directory + "/" + name), now.timeIntervalSince1970 - Double(st.st_mtim.tv_sec) > 3600 {
                unlink(directory + "/" + name)
            }
        }
        kept.sort { ($0.changed, $0.name) < ($1.changed, $1.name) }
        var count = kept.count
        var bytes = kept.reduce(0) { $0 + $1.bytes }
        var removed = 0
        for entry in kept {
            let tooOld = now.timeIntervalSince1970 - entry.changed > caps.age
            guard tooOld || count > caps.count || bytes > caps.bytes else { break }
            remove(entry.name, from: directory)
            count -= 1
            bytes -= entry.bytes
            removed += 1
        }
        return removed
    }

    /// Removes a finished report: the preload's file first (only when it is the same file), then
    /// the spool's link, so that a crash in between never lets intake take it in again.
    private func remove(_ name: String, from directory: String) {
        let spooled = directory + "/" + name
        if let original = POSIXFiles.lstatus(reportDirectory + "/" + name), let ours = POSIXFiles.lstatus(spooled),
           original.st_dev == ours.st_dev, original.st_ino == ours.st_ino {
            unlink(reportDirectory + "/" + name)
        }
        unlink(spooled + Self.responseSuffix)
        unlink(spooled)
    }

    private func withIntakeLock<T>(_ body: () throws(SpoolError) -> T) throws(SpoolError) -> T {
        guard let lock = try FileLock.acquire(root + "/intake.lock", create: true, wait: true) else {
            throw .unusable(path: root + "/intake.lock", reason: "cannot be locked")
        }
        defer { withExtendedLifetime(lock) {} }
        return try body()
    }
}
