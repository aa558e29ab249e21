import Foundation
import LoopHunterReport
import Testing
import LoopHunterTestSupport

/// The reliability suite's programs (Tests/Programs/reliability, built by
/// scripts/build-reliability-programs.sh) and helpers shared by its tests. Every run goes through
/// HostRun (a watchdog, a clean signal mask) and asserts the host's status and output.
enum Rel {
    static let dir = Native.release.appendingPathComponent("test-programs/reliability")
    static let program = dir.appendingPathComponent("lh-rel").path
    static func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Builds the native parts and the reliability programs once per test process.
    static func ensureBuilt() throws {
        try Native.ensureBuilt()
        switch buildOutcome {
        case .success: return
        case .failure(let error): throw error
        }
    }

    private static let buildOutcome: Result<Void, NativeBuildError> = {
        let run = HostRun.run([Native.root.appendingPathComponent("scripts/build-reliability-programs.sh").path],
                              environment: ["OUT": Native.release.path], timeout: 600)
        if run.status == 0 { return .success(()) }
        return .failure(NativeBuildError(output: run.stdout + run.stderr))
    }()

    /// Runs `lh-rel` plain and under the preload; expects the same status and stdout, no
    /// watchdog kill, no LoopHunter line on stderr; returns the run under the preload.
    @discardableResult
    static func same(_ arguments: [String], dir: ReportDirectory, extra: [String: String?] = [:],
                     status: Int32 = 0, timeout: Double = 120, compareStderr: Bool = true,
                     sourceLocation: SourceLocation = #_sourceLocation) -> HostRun {
        let plain = HostRun.run(arguments, environment: extra, timeout: timeout)
        let traced = HostRun.underPreload(arguments, dir: dir.path, extra: extra, timeout: timeout)
        #expect(!plain.timedOut && !traced.timedOut, "watchdog fired: \(arguments)", sourceLocation: sourceLocation)
        #expect(plain.status == status, "plain: \(plain.status) \(plain.stderr)", sourceLocation: sourceLocation)
        #expect(traced.status == plain.status, "under the preload: \(traced.status) \(traced.stderr)", sourceLocation: sourceLocation)
        #expect(traced.stdout == plain.stdout, "stdout changed:\n\(plain.stdout)\n---\n\(traced.stdout)", sourceLocation: sourceLocation)
        if compareStderr {
            #expect(traced.stderr == plain.stderr, "stderr changed:\n\(plain.stderr)\n---\n\(traced.stderr)", sourceLocation: sourceLocation)
        }
        return traced
    }

    /// Every JSON file of `dir` whose name starts with `prefix`, decoded loosely.
    static func json(_ dir: ReportDirectory, _ prefix: String) throws -> [[String: Any]] {
        try RawReports.json(dir, prefix)
    }

    static func number(_ v: Any?) -> UInt64? { RawReports.number(v) }

    /// The summary's thread named `name`.
    static func thread(_ summary: [String: Any], _ name: String) -> [String: Any]? {
        (summary["threads"] as? [[String: Any]] ?? []).first { ($0["name"] as? String) == name }
    }

    /// Every file in `dir` decodes as a report or summary (nothing torn); returns their count.
    static func allDecode(_ dir: ReportDirectory, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        var n = 0
        for name in dir.fileNames where name.hasSuffix(".json") && !name.hasPrefix(".") {
            do {
                _ = try ReportFile.load(URL(fileURLWithPath: dir.path + "/" + name))
                n += 1
            } catch {
                Issue.record("\(name) does not decode: \(error)", sourceLocation: sourceLocation)
            }
        }
        return n
    }
}
