import Foundation
import LoopHunterReport
import LoopHunterTestSupport
import Testing

/// Report files are written by LoopHunter's writer thread once a process wrote its first one
/// (issue 21: the breaching thread no longer waits on the file system), and none is lost however
/// the process leaves: a burst of reports made back to back, then exit, _exit, exec or fork at
/// once, while reports are still queued (Tests/Programs/lh_burst.c).
@Suite("Report files written by the writer thread")
struct ReportWriterTests {
    /// Reports per burst: more than the writer keeps up with on a local disk, so that the queue is
    /// still full of them when the process leaves (about 10 KB each).
    static let burst = 600

    static func environment(_ dir: ReportDirectory) -> [String: String?] {
        ["LD_PRELOAD": Native.preload, "LOOPHUNTER_DIR": dir.path, "LOOPHUNTER_MAX_REPORTS": "100000"]
    }

    /// Every report of a burst of `count` from process `pid` is there, whole, once; its summary
    /// says they were written, none failed, and accounts for every one.
    static func checkBurst(_ dir: ReportDirectory, pid: Int, prefix: String, count: Int, writerRan: Bool) throws {
        let reports = try dir.reports().filter { $0.process.pid == pid }
        #expect(reports.count == count, "\(reports.count) reports of pid \(pid): \(dir.fileNames.count) files")
        #expect(Set(reports.map(\.id)).count == reports.count, "a report file written twice")
        let missing = Set((0..<count).map { "\(prefix)\($0)" }).subtracting(reports.map(\.object.type))
        #expect(missing.isEmpty, "\(missing.count) view types without a report, e.g. \(missing.sorted().prefix(5))")
        let summary = try #require(try dir.summaries().first { $0.process.pid == pid }, "\(dir.fileNames.prefix(5))")
        #expect(summary.reports.written == UInt64(count))
        #expect(summary.reports.failed == 0)
        let writer = try #require(summary.reports.writer)
        #expect(!writer.running, "the queue is closed when the process leaves")
        if writerRan {
            // The first report is written by its breaching thread (no writer yet); every later one
            // was queued, or written by its thread when the queue could not take it.
            #expect(writer.queued > 0)
            #expect(writer.queued + writer.queueFull + writer.producerBusy + writer.tooLarge == UInt64(count - 1),
                    "\(writer)")
            #expect(writer.writtenAtLeaving <= writer.queued)
        } else {
            #expect(writer.queued == 0, "no writer thread: \(writer)")
        }
        #expect(!dir.fileNames.contains { $0.hasSuffix(".tmp") }, "no temporary left")
    }

    @Test("a burst of reports left by exit, _exit or exec: every report written, once",
          arguments: [("exit", Int32(0)), ("_exit", Int32(3)), ("exec", Int32(0))])
    func leaves(_ how: String, _ status: Int32) throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("writer-\(how)")
        defer { dir.remove() }
        let run = HostRun.run([Native.burst, how, "\(Self.burst)"], environment: Self.environment(dir), timeout: 300)
        #expect(run.status == status, "\(run.stderr)")
        #expect(run.stdout == "burst \(Self.burst)\n")
        let pid = try #require(try dir.summaries().first?.process.pid, "\(dir.fileNames.prefix(5))")
        try Self.checkBurst(dir, pid: pid, prefix: "Burst", count: Self.burst, writerRan: true)
    }

    /// The writer opens report files in a descriptor table of its own: while it writes the queued
    /// reports, a program that checks its descriptors after each report sees no difference (the
    /// lowest free number, the count of /proc/self/fd), and one that closes every descriptor above
    /// 2 closes none of the writer's. Sharing the program's table (measured with the unsharing
    /// taken out, three runs), the writer's open report file moved the program's number 26 to 159
    /// times and its count 10 to 74 times of 600, and the program's closefrom made 10 to 58 reports
    /// fail (EBADF).
    @Test("the writer's report files never show among the program's descriptors, and its closefrom cannot close them")
    func descriptors() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("writer-fds")
        defer { dir.remove() }
        let run = HostRun.run([Native.burst, "fds", "\(Self.burst)"], environment: Self.environment(dir), timeout: 300)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "burst \(Self.burst)\nfds moved=0 counted=0\n")
        let pid = try #require(try dir.summaries().first?.process.pid, "\(dir.fileNames.prefix(5))")
        try Self.checkBurst(dir, pid: pid, prefix: "Burst", count: Self.burst, writerRan: true)
        let writer = try #require(try dir.summaries().first?.reports.writer)
        #expect(writer.ownDescriptorTable == true, "\(writer)")
    }

    @Test("LOOPHUNTER_REPORT_THREAD=0: every report written by its breaching thread, no thread started")
    func off() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("writer-off")
        defer { dir.remove() }
        var environment = Self.environment(dir)
        environment["LOOPHUNTER_REPORT_THREAD"] = "0"
        let run = HostRun.run([Native.burst, "exit", "100"], environment: environment, timeout: 300)
        #expect(run.status == 0, "\(run.stderr)")
        let pid = try #require(try dir.summaries().first?.process.pid)
        try Self.checkBurst(dir, pid: pid, prefix: "Burst", count: 100, writerRan: false)
    }

    @Test("a fork while reports are queued: the parent writes its own, the child its own, none twice")
    func fork() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("writer-fork")
        defer { dir.remove() }
        let run = HostRun.run([Native.burst, "fork", "\(Self.burst)"], environment: Self.environment(dir), timeout: 300)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "burst \(Self.burst)\nchild \(Self.burst)\n")
        let summaries = try dir.summaries()
        #expect(summaries.count == 2, "\(summaries.map(\.process.pid))")
        let parent = try #require(summaries.first { $0.state == "exited" })
        let child = try #require(summaries.first { $0.state == "_exit" })
        try Self.checkBurst(dir, pid: parent.process.pid, prefix: "Burst", count: Self.burst, writerRan: true)
        try Self.checkBurst(dir, pid: child.process.pid, prefix: "Child", count: Self.burst, writerRan: false)
        #expect(dir.fileNames.filter { $0.hasPrefix("report-") }.count == 2 * Self.burst)
    }
}
