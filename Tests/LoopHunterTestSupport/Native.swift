import Foundation
import Testing

/// Paths of the package and of the native products the tests run (built by
/// scripts/build-native.sh, once per test process, before the first test that needs them).
enum Native {
    /// The package root: this file is Tests/LoopHunterTestSupport/Native.swift.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let release = root.appendingPathComponent(".build/release")
    static let preload = release.appendingPathComponent("libloophunter.so").path
    static let toykitLibrary = release.appendingPathComponent("libtoykit.so").path
    static let demo = release.appendingPathComponent("toykit-demo").path
    /// The `loophunter` command built with the tests (next to the test bundle).
    static let cli: String = {
        let bundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("loophunter").path
    }()
    /// Host programs of the end-to-end tests (Tests/Programs).
    static let probe = release.appendingPathComponent("test-programs/lh-probe").path
    static let poller = release.appendingPathComponent("test-programs/lh-poller").path
    /// A toykit loop left by _exit, exec, vfork... (Tests/Programs/lh_leave.c).
    static let leave = release.appendingPathComponent("test-programs/lh-leave").path

    /// The toykit scenarios, as `toykit-demo --list` prints them.
    static let scenarios = ["healthy", "loop", "capped-loop", "oscillate", "alloc-storm", "leak", "threads", "fork",
                            "stall", "slow-window", "timer-storm", "timer-dangling"]

    /// Builds the native parts once; every test that runs them calls this first. A failed build
    /// fails the test with the compiler's output.
    static func ensureBuilt() throws {
        switch buildOutcome {
        case .success: return
        case .failure(let error): throw error
        }
    }

    private static let buildOutcome: Result<Void, NativeBuildError> = {
        let run = HostRun.run([root.appendingPathComponent("scripts/build-native.sh").path],
                              timeout: 600)
        if run.status == 0 { return .success(()) }
        return .failure(NativeBuildError(output: run.stdout + run.stderr))
    }()
}

struct NativeBuildError: Error, CustomStringConvertible {
    let output: String
    var description: String { "scripts/build-native.sh failed:\n\(output)" }
}
