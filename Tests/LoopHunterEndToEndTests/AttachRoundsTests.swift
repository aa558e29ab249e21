import Foundation
import LoopHunterReport
import LoopHunterTestSupport
import Testing

/// Reliability row 33's rounds: attach, watch 2 s, detach, 100 times in a row into a GTK 3 and a
/// GTK 4 program (Tests/Programs/attach/attach-driver.sh, mode watch). Apart from AttachTests (a
/// serialized suite) so that the two programs' rounds, which mostly wait, run side by side.
@Suite("loophunter attach: 100 rounds into one program")
struct AttachRoundsTests {
    static let rounds = 100

    @Test("attach, watch 2 s, detach, 100 times in a row: the program runs on unharmed, threads and descriptors as before",
          arguments: ["gtk3-spinner-progress", "gtk4-spinner-progress"])
    func repeated(_ name: String) throws {
        try Native.ensureBuilt()
        let (run, facts, out) = AttachTests.drive("watch", rounds: Self.rounds, seconds: 2, delay: 2, program: [AttachTests.causes + "/" + name],
                                           gtk: true, environment: ["CAUSE_SECONDS": "600"])
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(facts.rounds.count == Self.rounds, "\(run.stdout)")
        for (i, round) in facts.rounds.enumerated() {
            #expect(round["status"] == 0, "round \(i + 1): \((try? String(contentsOfFile: out + "/round-\(i + 1).err", encoding: .utf8)) ?? "")")
            // LoopHunter's own threads and descriptors are gone, and the program has the threads it
            // had (GLib's pool workers aside: they end on their own after 15 s idle, attached or not).
            #expect(round["lh_threads"] == 0 && round["fds"] == facts.before["fds"] && round["threads"] == facts.before["threads"],
                    "round \(i + 1): \(round) against \(facts.before)")
            let summaries = try ReportDirectory(at: out + "/round-\(i + 1)").summaries()
            #expect(summaries.count == 1 && summaries.first?.state == "detached" && summaries.first?.attach?.endedBy == "command"
                    && (summaries.first?.layoutCalls ?? 0) > 0 && (summaries.first?.iterations ?? 0) > 0,
                    "round \(i + 1): \(summaries.map { "\($0.state ?? "-") \($0.iterations) \(String(describing: $0.attach))" })")
            #expect(try ReportDirectory(at: out + "/round-\(i + 1)").reports().isEmpty, "a healthy program: no report")
        }
        #expect(facts.target == 0)
        #expect(((try? String(contentsOfFile: out + "/target.out", encoding: .utf8)) ?? "") == "\(name): done\n")
    }

}
