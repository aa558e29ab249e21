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

    /// The driver's facts: "before ...", "round N status=S threads=T fds=F lh_threads=K", "target status=S".
    struct Facts {
        var before: [String: Int] = [:]
        var rounds: [[String: Int]] = []
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
        #expect(facts.rounds.first?["lh_threads"] == 0, "\(label): no LoopHunter thread left")
        #expect(facts.rounds.first?["fds"] == facts.before["fds"], "\(label): descriptors back to \(facts.before)")
        let target = (try? String(contentsOfFile: out + "/target.out", encoding: .utf8)) ?? ""
        let plain = gtk ? GTKRun.run(program, dir: nil, extra: env) : HostRun.run(program, environment: env)
        #expect(target == plain.stdout, "\(label): output as in a run never attached")
    }

    @Test("attach, watch 2 s, detach, 20 times in a row: the program runs on unharmed, threads and descriptors as before",
          arguments: ["gtk3-spinner-progress", "gtk4-spinner-progress"])
    func repeated(_ name: String) throws {
        try Native.ensureBuilt()
        let (run, facts, out) = Self.drive("watch", rounds: 20, seconds: 2, delay: 2, program: [Self.causes + "/" + name],
                                           gtk: true, environment: ["CAUSE_SECONDS": "120"])
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(facts.rounds.count == 20, "\(run.stdout)")
        for (i, round) in facts.rounds.enumerated() {
            #expect(round["status"] == 0, "round \(i + 1): \((try? String(contentsOfFile: out + "/round-\(i + 1).err", encoding: .utf8)) ?? "")")
            // LoopHunter's own threads and descriptors are gone. (GTK 4's own worker threads come and
            // go with its renderer, so the total thread count is compared on GTK 3 only.)
            #expect(round["lh_threads"] == 0 && round["fds"] == facts.before["fds"], "round \(i + 1): \(round) against \(facts.before)")
            if name.hasPrefix("gtk3") {
                #expect(round["threads"] == facts.before["threads"], "round \(i + 1): \(round) against \(facts.before)")
            }
            let summaries = try ReportDirectory(at: out + "/round-\(i + 1)").summaries()
            #expect(summaries.first?.state == "detached" && (summaries.first?.layoutCalls ?? 0) > 0, "round \(i + 1)")
            #expect(try ReportDirectory(at: out + "/round-\(i + 1)").reports().isEmpty, "a healthy program: no report")
        }
        #expect(facts.target == 0)
        #expect(((try? String(contentsOfFile: out + "/target.out", encoding: .utf8)) ?? "") == "\(name): done\n")
    }

    @Test("kill -9 of loophunter attach at random moments, 15 times: the program keeps running and ends as it would have")
    func killed() throws {
        try Native.ensureBuilt()
        let name = "gtk3-spinner-progress"
        let (run, facts, out) = Self.drive("kill", rounds: 15, seconds: 2, delay: 2, program: [Self.causes + "/" + name],
                                           gtk: true, environment: ["CAUSE_SECONDS": "60"])
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(facts.rounds.count == 15, "\(run.stdout)")
        #expect(facts.rounds.allSatisfy { $0["threads"] ?? 0 > 0 }, "alive after every kill: \(run.stdout)")
        #expect(facts.target == 0, "\(run.stdout)")
        #expect(((try? String(contentsOfFile: out + "/target.out", encoding: .utf8)) ?? "") == "\(name): done\n")
    }

    @Test("refusals name the process and say what to do")
    func refusals() throws {
        try Native.ensureBuilt()
        let missing = HostRun.cli(["attach", "999999"])
        #expect(missing.status == 2 && missing.stderr.contains("no process has pid 999999"), "\(missing.stderr)")
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
}
