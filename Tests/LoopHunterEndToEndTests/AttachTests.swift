import Foundation
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// `loophunter attach PID`: LoopHunter loaded into programs already running (toykit, GTK 3, GTK 4),
/// driven by Tests/Programs/attach/attach-driver.sh: a loop already running is reported within the
/// watch, the program runs on with its output, exit status, threads and descriptors unchanged, and
/// killing `loophunter attach` at random moments never harms it.
@Suite("loophunter attach", .serialized)
struct AttachTests {
    static let driver = Native.root.appendingPathComponent("Tests/Programs/attach/attach-driver.sh").path
    static let causes = Native.release.appendingPathComponent("cause-programs").path

    /// The driver's facts: "before ...", "round N status=S threads=T pool=P fds=F lh_threads=K",
    /// "settled ...", "final ...", "target status=S".
    struct Facts {
        var before: [String: Int] = [:]
        var rounds: [[String: Int]] = []
        var settled: [String: Int] = [:]
        var final: [String: Int] = [:]
        var target: Int = -1

        init(_ text: String) {
            for line in text.split(separator: "\n") {
                var values: [String: Int] = [:]
                for word in line.split(separator: " ") {
                    let kv = word.split(separator: "=", maxSplits: 1)
                    if kv.count == 2, let v = Int(kv[1]) { values[String(kv[0])] = v }
                }
                if line.hasPrefix("before ") { before = values }
                if line.hasPrefix("round ") { rounds.append(values) }
                if line.hasPrefix("settled ") { settled = values }
                if line.hasPrefix("final ") { final = values }
                if line.hasPrefix("target ") { target = values["status"] ?? -1 }
            }
        }
    }

    static func drive(_ mode: String, rounds: Int, seconds: Int, delay: Double, program: [String], gtk: Bool,
                      environment: [String: String?]) -> (HostRun, Facts, String) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("lh-attach-\(UUID().uuidString.prefix(8))").path
        var env = environment
        env["LOOPHUNTER_CLI"] = Native.cli
        env["GTK_A11Y"] = "none"
        env["NO_AT_BRIDGE"] = "1"
        env["GDK_BACKEND"] = "x11"
        let command = (gtk ? ["/usr/bin/xvfb-run", "-a"] : []) + ["/bin/bash", driver, mode, out, String(rounds), String(seconds),
                                                                  String(delay), "--"] + program
        let run = HostRun.run(command, environment: env, timeout: 900)
        return (run, Facts(run.stdout), out)
    }

    /// (label, program, under Xvfb, environment, the looping widgets: either is right, as the
    /// programs' truth lines say).
    static let loopTargets: [(String, [String], Bool, [String: String?], Set<String>)] = [
        ("toykit", [Native.demo, "attach-target"], false, ["TOYKIT_RUN_MS": "9000", "TOYKIT_LOOP_AFTER_MS": "0"],
         ["status", "toolbar"]),
        ("gtk3", [causes + "/gtk3-ping-pong"], true, ["CAUSE_SECONDS": "9"], ["ping", "pong"]),
        ("gtk4", [causes + "/gtk4-ping-pong"], true, ["CAUSE_SECONDS": "9"], ["ping", "pong"]),
    ]

    @Test("a loop already running is reported within a 3 s watch, and the program ends as it would have",
          arguments: [0, 1, 2])
    func loopAlreadyRunning(_ index: Int) throws {
        try Native.ensureBuilt()
        let (label, program, gtk, env, widget) = Self.loopTargets[index]
        let (run, facts, out) = Self.drive("watch", rounds: 1, seconds: 3, delay: 2, program: program, gtk: gtk, environment: env)
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(facts.rounds.count == 1 && facts.rounds.first?["status"] == 0, "\(label): \(run.stdout)\n\((try? String(contentsOfFile: out + "/round-1.err", encoding: .utf8)) ?? "")")
        #expect(facts.target == 0, "\(label): the program exits 0 after being watched")
        let dir = ReportDirectory(at: out + "/round-1")
        let reports = try dir.reports()
        #expect(!reports.isEmpty && reports.allSatisfy { widget.contains($0.object.name ?? "") },
                "\(label): the looping widget is named: \(reports.map { $0.object.name ?? "-" })")
        let summaries = try dir.summaries()
        #expect(summaries.count == 1 && summaries.first?.state == "detached", "\(label): \(summaries.map { $0.state ?? "-" })")
        // The loop's iterations were counted from soon after the hooks went in.
        #expect((summaries.first?.iterations ?? 0) > 0 && summaries.first?.attach?.firstIterationNs != nil
                && summaries.first?.attach?.endedBy == "command", "\(label): \(String(describing: summaries.first?.attach))")
        #expect(facts.rounds.first?["lh_threads"] == 0, "\(label): no LoopHunter thread left")
        #expect(facts.rounds.first?["fds"] == facts.before["fds"], "\(label): descriptors back to \(facts.before)")
        let target = (try? String(contentsOfFile: out + "/target.out", encoding: .utf8)) ?? ""
        let plain = gtk ? GTKRun.run(program, dir: nil, extra: env) : HostRun.run(program, environment: env)
        #expect(target == plain.stdout, "\(label): output as in a run never attached")
    }

    @Test("kill -9 of loophunter attach at random moments, 50 times: the program keeps running, its sessions end by themselves, attaching again works")
    func killed() throws {
        try Native.ensureBuilt()
        let name = "gtk3-spinner-progress"
        let (run, facts, out) = Self.drive("kill", rounds: 50, seconds: 1, delay: 2, program: [Self.causes + "/" + name],
                                           gtk: true, environment: ["CAUSE_SECONDS": "240"])
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(facts.rounds.count == 50, "\(run.stdout)")
        #expect(facts.rounds.allSatisfy { $0["threads"] ?? 0 > 0 }, "alive after every kill: \(run.stdout)")
        // A killed command's session ended by itself (its command gone, or replaced by the next
        // attach): nothing of LoopHunter's is left running or open.
        #expect(facts.settled["lh_threads"] == 0 && facts.settled["fds"] == facts.before["fds"]
                && facts.settled["threads"] == facts.before["threads"], "settled \(facts.settled) against \(facts.before)")
        var endings: [String: Int] = [:]
        for i in 1...50 {
            for summary in (try? ReportDirectory(at: out + "/round-\(i)").summaries()) ?? [] {
                endings[summary.attach?.endedBy ?? summary.state ?? "-", default: 0] += 1
                #expect(summary.state == "detached", "round \(i): a session left \(summary.state ?? "-")")
            }
        }
        // Attaching after the kills works, and ends as a normal watch.
        let final = try ReportDirectory(at: out + "/final").summaries()
        #expect(facts.final["status"] == 0 && final.count == 1 && final.first?.attach?.endedBy == "command"
                && (final.first?.iterations ?? 0) > 0, "final: \(facts.final) \(endings) \((try? String(contentsOfFile: out + "/final.err", encoding: .utf8)) ?? "")")
        #expect(facts.target == 0, "\(run.stdout)")
        #expect(((try? String(contentsOfFile: out + "/target.out", encoding: .utf8)) ?? "") == "\(name): done\n")
    }

    /// Starts `program` in the background, its output discarded.
    static func background(_ program: [String], environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program[0])
        process.arguments = Array(program.dropFirst())
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(300_000)
        return process
    }

    @Test("refusals name the process and say what to do")
    func refusals() throws {
        try Native.ensureBuilt()
        let missing = HostRun.cli(["attach", "999999"])
        #expect(missing.status == 2 && missing.stderr.contains("no process has pid 999999"), "\(missing.stderr)")

        // A statically linked program: nothing to dlopen into.
        let staticProgram = try Self.background([Rel.path("rel-static"), "4000"])
        let refusedStatic = HostRun.cli(["attach", String(staticProgram.processIdentifier)])
        staticProgram.waitUntilExit()
        #expect(refusedStatic.status == 2 && refusedStatic.stderr.contains("does not use glibc")
                && refusedStatic.stderr.contains("statically linked"), "\(refusedStatic.stderr)")
        #expect(staticProgram.terminationStatus == 0, "the static program ran on")

        // A program under Valgrind: injected code would crash Valgrind.
        let valgrind = try Self.background(["/usr/bin/valgrind", "--tool=none", Native.poller, "1500"])
        let refusedValgrind = HostRun.cli(["attach", String(valgrind.processIdentifier)])
        valgrind.waitUntilExit()
        #expect(refusedValgrind.status == 2 && refusedValgrind.stderr.contains("runs under Valgrind"), "\(refusedValgrind.stderr)")
        #expect(valgrind.terminationStatus == 0, "the program under Valgrind ran on")

        // Another user's process: loophunter run as nobody against one of ours.
        let ours = try Self.background([Rel.path("rel-static"), "4000"])
        let asNobody = HostRun.run(["/usr/bin/setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups",
                                    Native.cli, "attach", String(ours.processIdentifier)])
        ours.waitUntilExit()
        #expect(asNobody.status == 2 && asNobody.stderr.contains("belongs to another user")
                && asNobody.stderr.contains("run loophunter attach as that user, or as root"), "\(asNobody.stderr)")

        let preloaded = ReportDirectory("attach-preloaded")
        defer { preloaded.remove() }
        // A program under the preload already: its reports are where LOOPHUNTER_DIR says.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Native.demo)
        process.arguments = ["attach-target"]
        process.environment = ["LD_PRELOAD": Native.preload, "LOOPHUNTER_DIR": preloaded.path, "TOYKIT_RUN_MS": "3000"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        usleep(500_000)
        let refused = HostRun.cli(["attach", String(process.processIdentifier)])
        process.waitUntilExit()
        #expect(refused.status == 2 && refused.stderr.contains("already runs under the LoopHunter preload")
                && refused.stderr.contains(preloaded.path), "\(refused.stderr)")
    }

    @Test("a process with no event loop LoopHunter knows: attached, its allocations watched, and the verdict says so")
    func noKnownLoop() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("attach-no-loop")
        defer { dir.remove() }
        let poller = try Self.background([Native.poller, "2500"]) // 2,500 rounds of 1 ms poll + 1 ms select: ~5 s
        let run = HostRun.cli(["attach", "--for", "1", "--fail-on-breach", "--dir", dir.path, String(poller.processIdentifier)])
        poller.waitUntilExit()
        #expect(poller.terminationStatus == 0)
        // Exit 4: LoopHunter saw no event loop; the sentence says what it did watch.
        #expect(run.status == 4 && run.stdout.contains("has no event-loop library LoopHunter knows loaded")
                && run.stdout.contains("it watched only its allocations ("), "\(run.status) \(run.stdout) \(run.stderr)")
        let summaries = try dir.summaries()
        #expect(summaries.count == 1 && summaries.first?.state == "detached" && (summaries.first?.alloc?.calls ?? 0) > 0
                && summaries.first?.iterationSource.loopCodeRanges == 0
                && summaries.first?.alloc?.allocator?.aheadOfLoophunter == false, "\(summaries.map { "\($0.state ?? "-") \(String(describing: $0.alloc?.calls))" })")
    }

    @Test("the program exits during the watch: the command says so and its summary says exited")
    func exitsDuringWatch() throws {
        try Native.ensureBuilt()
        let dir = ReportDirectory("attach-exits")
        defer { dir.remove() }
        let program = try Self.background([Native.demo, "attach-target"], environment: ["TOYKIT_RUN_MS": "1500", "TOYKIT_LOOP_AFTER_MS": "100000"])
        let run = HostRun.cli(["attach", "--for", "10", "--dir", dir.path, String(program.processIdentifier)])
        program.waitUntilExit()
        #expect(program.terminationStatus == 0)
        #expect(run.status == 0 && run.stderr.contains("ended during the watch"), "\(run.stderr)")
        let summaries = try dir.summaries()
        #expect(summaries.count == 1 && summaries.first?.state == "exited" && (summaries.first?.iterations ?? 0) > 0,
                "\(summaries.map { $0.state ?? "-" }) \(run.stderr)")
    }
}
