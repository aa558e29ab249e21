import Foundation
import Testing
import LoopHunterTestSupport

/// `run`'s event-loop health options (schema 1.3): the new hook families and limits.
@Suite("loophunter run: event-loop health options")
struct HealthCLITests {
    @Test("--stall-ms and --window-ms are checked like --threshold; the new families are known")
    func validation() {
        let stall = HostRun.cli(["run", "--stall-ms", "5", "--", "/bin/true"])
        #expect(stall.status == 64 && stall.stderr.contains("--stall-ms must be between 10 and 3600000 (got 5)"))
        let window = HostRun.cli(["run", "--window-ms", "0", "--", "/bin/true"])
        #expect(window.status == 64 && window.stderr.contains("--window-ms must be between 1 and 3600000 (got 0)"))
        let hooks = HostRun.cli(["run", "--hooks", "stall,window,timer,bogus", "--", "/bin/true"])
        #expect(hooks.status == 64 && hooks.stderr.contains("unknown family bogus") && !hooks.stderr.contains("unknown family stall"))
        let help = HostRun.cli(["run", "--help"])
        #expect(help.stdout.contains("--stall-ms") && help.stdout.contains("--window-ms") && help.stdout.contains("stall, window, timer"))
    }
}
