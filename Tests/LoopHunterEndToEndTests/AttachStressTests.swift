import Foundation
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// Reliability row 33: `loophunter attach` into a program whose threads allocate and lay out flat
/// out, breach, fork and dlopen/dlclose a -z now library all the while (`lh-rel attach-busy`,
/// librel-now.so), 20 rounds of attach,
/// watch 1 s, detach, every fifth round's command killed with kill -9 at a random moment, driven by
/// Tests/Programs/attach/attach-driver.sh (mode stress). The injection's dlopen and
/// loophunter_attach run on the main thread at its poll() while the other threads hold malloc's,
/// the loader's and fork's locks over and over: nothing may deadlock (the watchdog), crash, or
/// change what the program computes (its own checks and output, its forked children's statuses).
@Suite("loophunter attach under stress", .serialized)
struct AttachStressTests {
    static let rounds = 20
    static let workers = "4"

    /// The program's descriptor count is back to what it was: LoopHunter opens none that outlives a
    /// session (libunwind's memory validation has no pipe of its own: runtime/lh_capture.c).
    static func descriptorsBack(_ now: Int?, _ before: Int?, _ what: String) {
        #expect(now == before, "\(what): \(now ?? -1) descriptors against \(before ?? -1) before")
    }

    @Test("row 33: 20 attach/detach rounds (every fifth command killed) into a program allocating, laying out, forking and dlopening flat out")
    func busyHost() throws {
        try Rel.ensureBuilt()
        let lib = Rel.path("librel-now.so")
        // The reference: the same mode, never attached, ended by its clock instead of the stop file.
        let plain = HostRun.run([Rel.program, "attach-busy", "4", Self.workers, lib], timeout: 120)
        #expect(plain.status == 0 && !plain.timedOut && plain.stdout.hasSuffix("attach-busy: done\n"),
                "plain run: \(plain.status) \(plain.stdout) \(plain.stderr)")

        let out = FileManager.default.temporaryDirectory.appendingPathComponent("lh-astress-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let command = ["/bin/bash", AttachTests.driver, "stress", out, String(Self.rounds), "1", "1", "--",
                       Rel.program, "attach-busy", "3600", Self.workers, lib, out + "/stop"]
        let run = HostRun.run(command, environment: ["LOOPHUNTER_CLI": Native.cli, "KILL_EVERY": "5"], timeout: 600)
        let facts = AttachTests.Facts(run.stdout)
        let target = (try? String(contentsOfFile: out + "/target.out", encoding: .utf8)) ?? ""
        let targetErr = (try? String(contentsOfFile: out + "/target.err", encoding: .utf8)) ?? ""
        #expect(!run.timedOut, "the watchdog fired (a deadlock?): \(run.stdout)")
        #expect(facts.rounds.count == Self.rounds, "\(run.stdout)\n\(run.stderr)")
        // The program, its threads and its forked children did all they do, as without LoopHunter.
        #expect(facts.target == 0, "the program's status: \(run.stdout)\n\(targetErr)")
        #expect(target == plain.stdout, "output as in a run never attached:\n\(target)---\n\(plain.stdout)\n\(targetErr)")

        let pid = try #require(facts.before["pid"], "\(run.stdout)")
        var watched = 0, killedSessions = 0
        for (i, round) in facts.rounds.enumerated() {
            let n = i + 1, killed = round["kill"] == 1
            let err = (try? String(contentsOfFile: out + "/round-\(n).err", encoding: .utf8)) ?? ""
            // Nothing of LoopHunter's left running or open, the program's own threads all there
            // (after a kill too: its session ended by itself within the 1.5 s).
            #expect(round["lh_threads"] == 0 && round["threads"] == facts.before["threads"], "round \(n): \(round) against \(facts.before)")
            Self.descriptorsBack(round["fds"], facts.before["fds"], "round \(n): \(round)")
            let summaries = try ReportDirectory(at: out + "/round-\(n)").summaries()
            let own = summaries.filter { $0.process.pid == pid }
            // Children forked during a session are not in it (LoopHunter idle there: the loader's
            // lock may be held by a thread they do not have): no summary of theirs at their exec.
            #expect(summaries.allSatisfy { $0.process.pid == pid },
                    "round \(n): \(summaries.map { "\($0.process.pid)/\($0.process.ppid)" })")
            if killed {
                // Killed before the injection: no session; after: it ended by itself or was
                // taken over by the next attach, with its summary saying so (or, killed after its
                // detach, while it printed, by the command).
                #expect(own.count <= 1 && own.allSatisfy { $0.state == "detached" && $0.attach?.endedBy != nil },
                        "round \(n) (killed after \(round["after_ms"] ?? -1) ms): \(own.map { "\($0.state ?? "-") \(String(describing: $0.attach?.endedBy))" })")
                killedSessions += own.count
                continue
            }
            watched += 1
            #expect(round["status"] == 0, "round \(n): \(err)")
            let summary = own.first
            #expect(own.count == 1 && summary?.state == "detached" && summary?.attach?.endedBy == "command",
                    "round \(n): \(own.map { "\($0.state ?? "-") \(String(describing: $0.attach))" }) \(err)")
            // Every thread's calls were counted: allocations, layouts, the main loop's iterations.
            #expect((summary?.alloc?.calls ?? 0) > 0 && (summary?.layoutCalls ?? 0) > 0 && (summary?.iterations ?? 0) > 0,
                    "round \(n): alloc \(summary?.alloc?.calls ?? 0) layouts \(summary?.layoutCalls ?? 0) iterations \(summary?.iterations ?? 0)")
        }
        #expect(watched == Self.rounds - Self.rounds / 5)
        #expect(facts.settled["lh_threads"] == 0 && facts.settled["threads"] == facts.before["threads"],
                "settled \(facts.settled) against \(facts.before)")
        Self.descriptorsBack(facts.settled["fds"], facts.before["fds"], "settled \(facts.settled)")
        print("attach stress: \(watched) watched rounds, \(Self.rounds / 5) killed (\(killedSessions) of them had begun a session); program: \(targetErr)")
    }
}
